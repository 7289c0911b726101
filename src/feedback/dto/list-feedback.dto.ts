import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { IsDateTimeWithZone, IsIntegerIn, toInteger } from '../../common/query-validators';
import { CATEGORY_MAX } from './provide-feedback.dto';
import { IsText } from './text.validator';

export class FeedbackSummaryQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only feedback created at or after this instant (ISO 8601, with a zone)',
  })
  @IsOptional()
  @IsDateTimeWithZone()
  since?: string;
}

export class ListFeedbackQueryDto extends FeedbackSummaryQueryDto {
  @ApiPropertyOptional({ description: 'Only feedback of this category' })
  @IsOptional()
  @IsText(1, CATEGORY_MAX)
  category?: string;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerIn(1, 1000, 'limit must be an integer from 1 to 1000')
  limit?: number;

  @ApiPropertyOptional({ type: Number, minimum: 0, default: 0 })
  @IsOptional()
  @Transform(toInteger)
  @IsIntegerIn(0, Number.MAX_SAFE_INTEGER, 'offset must be an integer of 0 or more')
  offset?: number;
}
