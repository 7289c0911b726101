import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsNestedObject, IsResourceName } from '../../common/validators';

/** The parameter types Unleash's admin UI knows how to edit. */
export const PARAMETER_TYPES = ['string', 'percentage', 'list', 'number', 'boolean'] as const;

@ApiSchema({ name: 'strategyParameterSchema' })
export class StrategyParameterDto {
  @ApiProperty({ description: 'Name of the parameter, unique within the strategy type' })
  @IsString({ message: 'name must be a string' })
  @Length(1, 100, { message: 'name must be 1 to 100 characters long' })
  name: string;

  @ApiProperty({ enum: PARAMETER_TYPES })
  @IsIn(PARAMETER_TYPES, { message: `type must be one of ${PARAMETER_TYPES.join(', ')}` })
  type: (typeof PARAMETER_TYPES)[number];

  @ApiPropertyOptional({ default: '' })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(1000, { message: 'description must be at most 1000 characters long' })
  description?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean({ message: 'required must be a boolean' })
  required?: boolean;
}

@ApiSchema({ name: 'createStrategySchema' })
export class CreateStrategyTypeDto {
  @ApiProperty({ description: 'Name of the strategy type, used by feature strategies' })
  @IsResourceName()
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Display name' })
  @IsOptional()
  @IsString({ message: 'title must be a string' })
  @MaxLength(255, { message: 'title must be at most 255 characters long' })
  title?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(10000, { message: 'description must be at most 10000 characters long' })
  description?: string | null;

  @ApiPropertyOptional({ type: [StrategyParameterDto] })
  @IsOptional()
  @IsArray({ message: 'parameters must be an array' })
  @ArrayMaxSize(100)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StrategyParameterDto)
  parameters?: StrategyParameterDto[];
}

/** `name` may be sent but must equal the name in the path. */
@ApiSchema({ name: 'updateStrategySchema' })
export class UpdateStrategyTypeDto extends PartialType(CreateStrategyTypeDto, {
  skipNullProperties: false,
}) {}
