import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { isISO8601, IsOptional, ValidateBy } from 'class-validator';
import { CATEGORY_MAX } from './provide-feedback.dto';
import { IsText } from './text.validator';

/**
 * Query values arrive as strings. Only plain decimal digits become numbers: Number() alone would
 * also accept "", " 5", "1e2" and "0x10".
 */
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;

/** One rule and one message per field, so that a wrong value yields one detail, not three. */
function IsIntegerIn(min: number, max: number, message: string): PropertyDecorator {
  return ValidateBy({
    name: 'isIntegerIn',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) =>
        Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max,
      defaultMessage: () => message,
    },
  });
}

/** A date-time with an explicit zone, so that its meaning does not depend on the server's zone. */
const DATE_TIME_WITH_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i;

function IsDateTimeWithZone(): PropertyDecorator {
  return ValidateBy({
    name: 'isDateTimeWithZone',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        DATE_TIME_WITH_ZONE.test(value) &&
        isISO8601(value, { strict: true }),
      defaultMessage: () =>
        '$property must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00.000Z',
    },
  });
}

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
