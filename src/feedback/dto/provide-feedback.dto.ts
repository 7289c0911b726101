import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNumber, IsOptional } from 'class-validator';
import { IsText } from './text.validator';

export const CATEGORY_MAX = 100;
export const USER_TYPE_MAX = 100;
export const FEEDBACK_TEXT_MAX = 10_000;

/** The body of POST /feedback (the seed's provideFeedbackSchema). `null` and absent both mean "not given". */
@ApiSchema({ name: 'provideFeedbackSchema' })
export class ProvideFeedbackDto {
  @ApiProperty({ description: 'Category of the feedback', minLength: 1, maxLength: CATEGORY_MAX })
  @IsText(1, CATEGORY_MAX)
  category: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: USER_TYPE_MAX,
    description: 'Type of user giving the feedback',
  })
  @IsOptional()
  @IsText(0, USER_TYPE_MAX)
  userType?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Score for the difficulty the user experienced; any finite number',
  })
  @IsOptional()
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'difficultyScore must be a finite number or null' },
  )
  difficultyScore?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: FEEDBACK_TEXT_MAX,
    description: 'What the user liked',
  })
  @IsOptional()
  @IsText(0, FEEDBACK_TEXT_MAX)
  positive?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: FEEDBACK_TEXT_MAX,
    description: 'Aspects that could be improved',
  })
  @IsOptional()
  @IsText(0, FEEDBACK_TEXT_MAX)
  areasForImprovement?: string | null;
}
