import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsNestedObject, IsOptionalNotNull, IsResourceName } from '../../common/validators';

@ApiSchema({ name: 'legalValueSchema' })
export class LegalValueDto {
  @ApiProperty({ description: 'An allowed value, 1 to 100 characters' })
  @IsString({ message: 'value must be a string' })
  @Length(1, 100, { message: 'value must be 1 to 100 characters long' })
  value: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(1000, { message: 'description must be at most 1000 characters long' })
  description?: string;
}

@ApiSchema({ name: 'createContextFieldSchema' })
export class CreateContextFieldDto {
  @ApiProperty({ description: 'Name of the context field' })
  @IsResourceName()
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(10000, { message: 'description must be at most 10000 characters long' })
  description?: string | null;

  @ApiPropertyOptional({
    default: false,
    description: 'Whether the field can be used for stickiness calculations',
  })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'stickiness must be a boolean' })
  stickiness?: boolean;

  @ApiPropertyOptional({ default: 10, description: 'Sorting position; ties sort by name' })
  @IsOptionalNotNull()
  @IsInt({ message: 'sortOrder must be an integer' })
  @Min(-2147483648)
  @Max(2147483647)
  sortOrder?: number;

  @ApiPropertyOptional({
    type: [LegalValueDto],
    description: 'Allowed values, unique, kept in the given order',
  })
  @IsOptional()
  @IsArray({ message: 'legalValues must be an array' })
  @ArrayMaxSize(1000)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => LegalValueDto)
  legalValues?: LegalValueDto[];
}

/** `name` may be sent but must equal the name in the path. */
@ApiSchema({ name: 'updateContextFieldSchema' })
export class UpdateContextFieldDto extends PartialType(CreateContextFieldDto, {
  skipNullProperties: false,
}) {}
