import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ConstraintDto } from '../../common/constraints/constraint.dto';
import { IsNestedObject, IsOptionalNotNull, IsResourceName } from '../../common/validators';
import { StrategyVariantDto, StrategyVariantInputDto } from './variant.dto';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Body of POST .../strategies: one activation strategy of a feature in an environment. */
@ApiSchema({ name: 'createFeatureStrategySchema' })
export class CreateStrategyDto {
  @ApiProperty({ description: 'The strategy type, e.g. flexibleRollout' })
  @IsResourceName()
  name: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  title?: string | null;

  @ApiPropertyOptional({ nullable: true, type: Boolean, default: false })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean | null;

  @ApiPropertyOptional({ description: 'Position in the list; new strategies go last by default' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  sortOrder?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Parameter name to string value',
  })
  @IsOptional()
  @IsObject()
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({ type: [ConstraintDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ConstraintDto)
  constraints?: ConstraintDto[];

  @ApiPropertyOptional({ type: [StrategyVariantInputDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StrategyVariantInputDto)
  variants?: StrategyVariantInputDto[];

  @ApiPropertyOptional({ type: [Number], description: 'Ids of existing segments' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(1, { each: true })
  segments?: number[];
}

/** Body of PUT .../strategies/:id: the whole strategy; an `id`, if given, must be the path's. */
@ApiSchema({ name: 'updateFeatureStrategySchema' })
export class UpdateStrategyDto extends CreateStrategyDto {
  @ApiPropertyOptional({ description: 'Must equal the id in the path when given' })
  @IsOptional()
  @IsString()
  @MaxLength(36)
  id?: string;
}

/** The seed's Strategy. */
@ApiSchema({ name: 'featureStrategySchema' })
export class StrategyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'The strategy type' }) name: string;
  @ApiProperty({ nullable: true, type: String }) title: string | null;
  @ApiProperty() disabled: boolean;
  @ApiProperty() featureName: string;
  @ApiProperty() sortOrder: number;
  @ApiProperty({ type: [Number] }) segments: number[];
  @ApiProperty({ type: [ConstraintDto] }) constraints: ConstraintDto[];
  @ApiProperty({ type: [StrategyVariantDto] }) variants: StrategyVariantDto[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  parameters: Record<string, string>;
}
