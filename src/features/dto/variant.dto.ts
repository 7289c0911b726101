import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { PAYLOAD_TYPES, WEIGHT_TYPES } from '../variant';
import { IsNestedObject } from '../../common/validators';

@ApiSchema({ name: 'payloadSchema' })
export class PayloadDto {
  @ApiProperty({ enum: PAYLOAD_TYPES })
  @IsIn(PAYLOAD_TYPES, { message: `type must be one of ${PAYLOAD_TYPES.join(', ')}` })
  type: (typeof PAYLOAD_TYPES)[number];

  @ApiProperty({ description: 'json must parse as JSON, number as a number' })
  @IsString()
  @MaxLength(10000)
  value: string;
}

@ApiSchema({ name: 'overrideSchema' })
export class OverrideDto {
  @ApiProperty({ description: 'An existing context field' })
  @IsString()
  @Length(1, 100)
  contextName: string;

  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(1000, { each: true })
  values: string[];
}

/** A strategy-level variant, as sent (the seed's StrategyVariant). */
@ApiSchema({ name: 'createStrategyVariantSchema' })
export class StrategyVariantInputDto {
  @ApiProperty()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ minimum: 0, maximum: 1000, description: 'Recomputed for variable variants' })
  @IsInt()
  @Min(0)
  @Max(1000)
  weight: number;

  @ApiProperty({ enum: WEIGHT_TYPES })
  @IsIn(WEIGHT_TYPES, { message: `weightType must be one of ${WEIGHT_TYPES.join(', ')}` })
  weightType: (typeof WEIGHT_TYPES)[number];

  @ApiProperty({ description: 'default, random or a context field' })
  @IsString()
  @Length(1, 100)
  stickiness: string;

  @ApiPropertyOptional({ type: PayloadDto })
  @IsOptional()
  @IsNestedObject()
  @ValidateNested()
  @Type(() => PayloadDto)
  payload?: PayloadDto;
}

/** A feature-environment variant, as sent in the PUT list (the seed's Variant). */
@ApiSchema({ name: 'createVariantSchema' })
export class VariantInputDto {
  @ApiProperty()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ minimum: 0, maximum: 1000, description: 'Recomputed for variable variants' })
  @IsInt()
  @Min(0)
  @Max(1000)
  weight: number;

  @ApiPropertyOptional({ enum: WEIGHT_TYPES, default: 'variable' })
  @IsOptional()
  @IsIn(WEIGHT_TYPES, { message: `weightType must be one of ${WEIGHT_TYPES.join(', ')}` })
  weightType?: (typeof WEIGHT_TYPES)[number];

  @ApiPropertyOptional({ default: 'default', description: 'default, random or a context field' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  stickiness?: string;

  @ApiPropertyOptional({ type: PayloadDto })
  @IsOptional()
  @IsNestedObject()
  @ValidateNested()
  @Type(() => PayloadDto)
  payload?: PayloadDto;

  @ApiPropertyOptional({ type: [OverrideDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => OverrideDto)
  overrides?: OverrideDto[];
}

@ApiSchema({ name: 'strategyVariantSchema' })
export class StrategyVariantDto {
  @ApiProperty() name: string;
  @ApiProperty({ minimum: 0, maximum: 1000 }) weight: number;
  @ApiProperty({ enum: WEIGHT_TYPES }) weightType: string;
  @ApiProperty() stickiness: string;
  @ApiPropertyOptional({ type: PayloadDto }) payload?: PayloadDto;
}

@ApiSchema({ name: 'variantSchema' })
export class VariantDto extends StrategyVariantDto {
  @ApiPropertyOptional({ type: [OverrideDto] }) overrides?: OverrideDto[];
}

@ApiSchema({ name: 'variantsSchema' })
export class VariantListDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: [VariantDto] }) variants: VariantDto[];
}
