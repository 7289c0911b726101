import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsString, Length, ValidateIf } from 'class-validator';

const present = (field: keyof ExportQueryDto) => (query: ExportQueryDto) =>
  query[field] !== undefined;

/**
 * The seed's exportQuerySchema: `environment`, optional `downloadFile`, and at least one of the
 * selectors `features`, `tag`, `project` (the service checks that one is present and which rule
 * applies). Optional fields are validated whenever they are present, so `null` is a 400 rather
 * than a silently missing selector.
 */
@ApiSchema({ name: 'exportQuerySchema' })
export class ExportQueryDto {
  @ApiProperty({ description: 'The environment to export from' })
  @IsString({ message: 'environment must be a string' })
  @Length(1, 100, { message: 'environment must be 1 to 100 characters long' })
  environment: string;

  @ApiPropertyOptional({
    description:
      'Whether to answer as a downloadable file (Content-Disposition: attachment); the body is the same',
  })
  @ValidateIf(present('downloadFile'))
  @IsBoolean({ message: 'downloadFile must be a boolean' })
  downloadFile?: boolean;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Selects features by name (archived ones included); used when no tag is given. An empty list alone selects every active feature',
  })
  @ValidateIf(present('features'))
  @IsArray({ message: 'features must be an array of feature names' })
  @IsString({ each: true, message: 'each feature name must be a string' })
  @Length(1, 100, { each: true, message: 'each feature name must be 1 to 100 characters long' })
  features?: string[];

  @ApiPropertyOptional({
    description:
      'Selects the features (archived ones included) carrying this tag value, under any tag type; takes precedence over the other selectors',
  })
  @ValidateIf(present('tag'))
  @IsString({ message: 'tag must be a string' })
  @Length(1, 100, { message: 'tag must be 1 to 100 characters long' })
  tag?: string;

  @ApiPropertyOptional({
    description:
      'Selects the active features of this project; used when no tag and no feature names are given',
  })
  @ValidateIf(present('project'))
  @IsString({ message: 'project must be a string' })
  @Length(1, 100, { message: 'project must be 1 to 100 characters long' })
  project?: string;
}
