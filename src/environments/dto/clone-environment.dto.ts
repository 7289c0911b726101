import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, Length } from 'class-validator';
import { IsResourceName, IsOptionalNotNull } from '../../common/validators';
import { KNOWN_ENVIRONMENT_TYPES } from './create-environment.dto';

/** The seed's cloneEnvironmentSchema. */
@ApiSchema({ name: 'cloneEnvironmentSchema' })
export class CloneEnvironmentDto {
  @ApiProperty({ description: 'Name of the new environment; cannot be changed later' })
  @IsResourceName()
  name: string;

  @ApiProperty({
    description: `Type of the new environment; known types: ${KNOWN_ENVIRONMENT_TYPES.join(', ')}; others are accepted`,
    example: 'development',
  })
  @IsString({ message: 'type must be a string' })
  @Length(1, 100, { message: 'type must be 1 to 100 characters long' })
  type: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Projects to include in the cloned environment; omitted or []: every project of the source',
  })
  @IsOptionalNotNull()
  @IsArray({ message: 'projects must be an array of project ids' })
  @ArrayMaxSize(10000)
  @IsString({ each: true, message: 'each project must be a string' })
  @Length(1, 100, { each: true, message: 'each project must be 1 to 100 characters long' })
  projects?: string[];

  @ApiPropertyOptional({
    default: true,
    description: 'If true, copies the role-based permissions of the source environment',
  })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'clonePermissions must be a boolean' })
  clonePermissions?: boolean;
}
