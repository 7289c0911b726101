import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IsResourceName } from '../../common/validators';

@ApiSchema({ name: 'createProjectSchema' })
export class CreateProjectDto {
  @ApiProperty({ description: 'Identifier of the project, used in paths; cannot be changed' })
  @IsResourceName()
  id: string;

  @ApiProperty({ description: 'Display name' })
  @IsString({ message: 'name must be a string' })
  @Length(1, 255, { message: 'name must be 1 to 255 characters long' })
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(10000, { message: 'description must be at most 10000 characters long' })
  description?: string | null;
}

/** `id` may be sent but must equal the id in the path; `description: null` clears it. */
@ApiSchema({ name: 'updateProjectSchema' })
export class UpdateProjectDto extends PartialType(CreateProjectDto, {
  skipNullProperties: false,
}) {}
