import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNumber, IsOptional } from 'class-validator';
import { codePointLength, IsText } from './text.validator';

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

const FEEDBACK_FIELDS = new Set([
  'category',
  'userType',
  'difficultyScore',
  'positive',
  'areasForImprovement',
]);

function isOptionalText(value: unknown, max: number): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'string') return false;
  const length = codePointLength(value);
  return length >= 0 && length <= max;
}

/**
 * True when a parsed JSON body plainly satisfies every rule of ProvideFeedbackDto above: a plain
 * object with only its five fields, each of the right type and length. It never accepts a body
 * that the full validation (class-validator through the global pipe) rejects; the unit spec
 * compares the two on thousands of generated bodies.
 */
export function isPlainlyValidFeedback(value: unknown): value is ProvideFeedbackDto {
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.getPrototypeOf(value) !== Object.prototype
  )
    return false;
  for (const key of Object.keys(value)) if (!FEEDBACK_FIELDS.has(key)) return false;
  const body = value as Record<string, unknown>;
  const score = body.difficultyScore;
  const category = body.category;
  if (typeof category !== 'string') return false;
  const categoryLength = codePointLength(category);
  return (
    categoryLength >= 1 &&
    categoryLength <= CATEGORY_MAX &&
    (score === undefined ||
      score === null ||
      (typeof score === 'number' && Number.isFinite(score))) &&
    isOptionalText(body.userType, USER_TYPE_MAX) &&
    isOptionalText(body.positive, FEEDBACK_TEXT_MAX) &&
    isOptionalText(body.areasForImprovement, FEEDBACK_TEXT_MAX)
  );
}
