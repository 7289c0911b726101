import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ConstraintDto } from '../../common/constraints/constraint.dto';
import { IsNestedObject, IsResourceName } from '../../common/validators';

@ApiSchema({ name: 'upsertSegmentSchema' })
export class CreateSegmentDto {
  @ApiProperty({ description: 'Unique name of the segment, 1 to 100 characters' })
  @IsString({ message: 'name must be a string' })
  @Length(1, 100, { message: 'name must be 1 to 100 characters long' })
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(10000, { message: 'description must be at most 10000 characters long' })
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Limits the segment to one project; null or absent: every project',
  })
  @IsOptional()
  @IsResourceName()
  project?: string | null;

  @ApiProperty({ type: [ConstraintDto] })
  @IsArray({ message: 'constraints must be an array' })
  @ArrayMaxSize(1000)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ConstraintDto)
  constraints: ConstraintDto[];
}

/** A partial body: what is absent stays. `id` may be sent but must equal the id in the path. */
@ApiSchema({ name: 'updateSegmentSchema' })
export class UpdateSegmentDto extends PartialType(CreateSegmentDto, { skipNullProperties: false }) {
  @ApiPropertyOptional({ description: 'If given, must equal the id in the path' })
  @IsOptional()
  @IsInt({ message: 'id must be an integer' })
  id?: number;
}
