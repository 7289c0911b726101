import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { LegalValueDto } from '../../context-fields/dto/create-context-field.dto';
import { DependencyDto } from '../../features/dto/feature.dto';
import { StrategyDto } from '../../features/dto/strategy.dto';
import { VariantDto } from '../../features/dto/variant.dto';
import { TagTypeDto } from '../../tags/dto/tag-type.dto';

/*
 * The seed's ExportResult with the fields rules.md §6 lists, in that order. Where another module
 * already registered the seed's schema with the same fields (Strategy, Variant, TagType, a
 * dependency's parent), it is reused; the others get export-specific schema names, because the
 * export's Feature, FeatureEnvironment and ContextField carry fewer fields than the records of
 * the admin routes.
 */

@ApiSchema({ name: 'exportFeatureSchema' })
export class ExportFeatureDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() type: string;
  @ApiProperty() project: string;
  @ApiProperty() stale: boolean;
  @ApiProperty() impressionData: boolean;
  @ApiProperty() archived: boolean;
}

@ApiSchema({ name: 'exportFeatureEnvironmentSchema' })
export class ExportFeatureEnvironmentDto {
  @ApiProperty({ description: 'The feature name (as Unleash exports it)' }) name: string;
  @ApiProperty() featureName: string;
  @ApiProperty() environment: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: [VariantDto] }) variants: VariantDto[];
}

@ApiSchema({ name: 'exportContextFieldSchema' })
export class ExportContextFieldDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() stickiness: boolean;
  @ApiProperty() sortOrder: number;
  @ApiProperty({ type: [LegalValueDto], description: 'In stored order' })
  legalValues: LegalValueDto[];
}

@ApiSchema({ name: 'exportSegmentSchema' })
export class ExportSegmentDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

@ApiSchema({ name: 'featureTagSchema' })
export class ExportFeatureTagDto {
  @ApiProperty() featureName: string;
  @ApiProperty() tagType: string;
  @ApiProperty() tagValue: string;
  @ApiProperty({ type: Number, nullable: true }) createdByUserId: number | null;
}

@ApiSchema({ name: 'exportDependencySchema' })
export class ExportDependencyDto {
  @ApiProperty({ description: 'The child feature' }) feature: string;
  @ApiProperty({ type: [DependencyDto], description: 'Its parents, by name' })
  dependencies: DependencyDto[];
}

/** Every list is sorted (rules.md §6), so that two exports of the same data are byte-identical. */
@ApiSchema({ name: 'exportResultSchema' })
export class ExportResultDto {
  @ApiProperty({ type: [ExportFeatureDto], description: 'By name' })
  features: ExportFeatureDto[];

  @ApiProperty({ type: [ExportFeatureEnvironmentDto], description: 'By featureName' })
  featureEnvironments: ExportFeatureEnvironmentDto[];

  @ApiProperty({ type: [StrategyDto], description: 'By featureName, sortOrder, id' })
  featureStrategies: StrategyDto[];

  @ApiProperty({ type: [ExportContextFieldDto], description: 'By name' })
  contextFields: ExportContextFieldDto[];

  @ApiProperty({ type: [ExportSegmentDto], description: 'By name, then id' })
  segments: ExportSegmentDto[];

  @ApiProperty({ type: [ExportFeatureTagDto], description: 'By featureName, tagType, tagValue' })
  featureTags: ExportFeatureTagDto[];

  @ApiProperty({ type: [TagTypeDto], description: 'By name' })
  tagTypes: TagTypeDto[];

  @ApiProperty({ type: [ExportDependencyDto], description: 'By feature, then parent' })
  dependencies: ExportDependencyDto[];
}
