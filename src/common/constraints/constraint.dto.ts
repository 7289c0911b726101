import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';
import { CONSTRAINT_OPERATORS, ConstraintOperator } from './constraint';

/** The seed's Constraint, as a request body part (segments and strategies). */
@ApiSchema({ name: 'constraintSchema' })
export class ConstraintDto {
  @ApiProperty({ description: 'Context field the constraint applies to' })
  @IsString()
  @Length(1, 100)
  contextName: string;

  @ApiProperty({ enum: CONSTRAINT_OPERATORS })
  @IsIn(CONSTRAINT_OPERATORS, {
    message: `operator must be one of ${CONSTRAINT_OPERATORS.join(', ')}`,
  })
  operator: ConstraintOperator;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  caseInsensitive?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  inverted?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'For IN, NOT_IN and the STR_* operators' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(1000, { each: true })
  values?: string[];

  @ApiPropertyOptional({ description: 'For the NUM_*, DATE_* and SEMVER_* operators' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  value?: string;
}
