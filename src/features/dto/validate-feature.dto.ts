import { ApiProperty, ApiPropertyOptional, ApiSchema, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Length } from 'class-validator';
import { IsResourceName } from '../../common/validators';
import { CreateFeatureDto } from './create-feature.dto';

/** The create form's name check (Unleash's validateFeatureSchema): the name under create's rule. */
@ApiSchema({ name: 'validateFeatureSchema' })
export class ValidateFeatureDto extends PickType(CreateFeatureDto, ['name'] as const) {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The project the feature would be created in; it must exist',
  })
  @IsOptional()
  @IsResourceName()
  projectId?: string | null;
}

/** Unleash's batchFeaturesSchema: the features an archive would take. */
@ApiSchema({ name: 'batchFeaturesSchema' })
export class BatchFeaturesDto {
  @ApiProperty({ type: [String], description: 'Names of features of the project in the path' })
  @IsArray({ message: 'features must be an array' })
  @ArrayMaxSize(1000)
  @IsString({ each: true, message: 'features must hold strings' })
  @Length(1, 100, { each: true, message: 'each feature name must be 1 to 100 characters long' })
  features: string[];
}

/** What archiving the listed features would do (Unleash's validateArchiveFeaturesSchema). */
@ApiSchema({ name: 'validateArchiveFeaturesSchema' })
export class ValidateArchiveFeaturesDto {
  @ApiProperty({
    type: [String],
    description:
      'Listed features that active features outside the list depend on: archiving them is refused with 409 until those children are archived too',
  })
  parentsWithChildFeatures: string[];

  @ApiProperty({
    description:
      'Whether the archive would delete dependencies; always false here, since archiving keeps the dependency rows (a revived feature gets them back)',
  })
  hasDeletedDependencies: boolean;
}
