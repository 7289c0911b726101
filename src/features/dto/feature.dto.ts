import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { FEATURE_TYPES } from '../feature.entity';
import { LIFECYCLE_STAGES } from '../feature-lifecycle.entity';
import { StrategyDto } from './strategy.dto';
import { VariantDto } from './variant.dto';
import { TagDto } from '../../tags/dto/tag.dto';

export { TagDto, TagListDto } from '../../tags/dto/tag.dto';

/** A parent of a feature (the seed's Feature.dependencies item). */
@ApiSchema({ name: 'featureDependencySchema' })
export class DependencyDto {
  @ApiProperty({ description: 'Name of the parent feature' }) feature: string;
  @ApiProperty({ description: 'Whether the parent must be enabled' }) enabled: boolean;
  @ApiProperty({ type: [String], description: 'Variants the parent must resolve to' })
  variants: string[];
}

/** The current lifecycle stage of a feature. */
@ApiSchema({ name: 'featureLifecycleSchema' })
export class LifecycleDto {
  @ApiProperty({ enum: LIFECYCLE_STAGES }) stage: string;
  @ApiProperty({ format: 'date-time' }) enteredStageAt: string;
}

/** A feature's configuration in one environment (the seed's FeatureEnvironment). */
@ApiSchema({ name: 'featureEnvironmentSchema' })
export class FeatureEnvironmentDto {
  @ApiProperty({ description: 'Name of the environment' }) name: string;
  @ApiPropertyOptional() featureName?: string;
  @ApiPropertyOptional() environment?: string;
  @ApiProperty({ description: 'Type of the environment' }) type: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty() sortOrder: number;
  @ApiProperty() variantCount: number;
  @ApiPropertyOptional({
    type: [VariantDto],
    description: 'Present when one feature is read and in searches',
  })
  variants?: VariantDto[];
  @ApiPropertyOptional({
    type: [StrategyDto],
    description: 'Present when one feature is read; left out of feature lists',
  })
  strategies?: StrategyDto[];
  @ApiProperty() hasStrategies: boolean;
  @ApiProperty() hasEnabledStrategies: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) lastSeenAt: string | null;
}

/** A person on a feature record: its creator or one of its collaborators. */
@ApiSchema({ name: 'featurePersonSchema' })
export class FeaturePersonDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'Name, or else username, or else email' }) name: string;
  @ApiProperty({ type: String, nullable: true }) imageUrl: string | null;
}

/** The seed's `collaborators`: an object holding the users, as Unleash's admin UI reads it. */
@ApiSchema({ name: 'featureCollaboratorsSchema' })
export class FeatureCollaboratorsDto {
  @ApiProperty({
    type: [FeaturePersonDto],
    description: 'The users who changed the feature, most recent change first',
  })
  users: FeaturePersonDto[];
}

/** The seed's Feature record. */
@ApiSchema({ name: 'featureSchema' })
export class FeatureDto {
  @ApiProperty() name: string;
  @ApiProperty({ enum: FEATURE_TYPES }) type: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty() project: string;
  @ApiProperty({ description: 'true if enabled in at least one environment' }) enabled: boolean;
  @ApiProperty() archived: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) archivedAt: string | null;
  @ApiProperty() stale: boolean;
  @ApiProperty() impressionData: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: [FeatureEnvironmentDto] }) environments: FeatureEnvironmentDto[];
  @ApiProperty({ type: [TagDto] }) tags: TagDto[];
  @ApiProperty({ type: [DependencyDto] }) dependencies: DependencyDto[];
  @ApiProperty({ type: [String], description: 'Names of the features that depend on this one' })
  children: string[];
  @ApiProperty({ type: LifecycleDto, nullable: true }) lifecycle: LifecycleDto | null;
  @ApiProperty({
    type: FeaturePersonDto,
    nullable: true,
    description: 'The user who created it; null when an API token (or an import) did',
  })
  createdBy: FeaturePersonDto | null;
  @ApiProperty({ type: FeatureCollaboratorsDto }) collaborators: FeatureCollaboratorsDto;
  @ApiProperty({ description: "Whether it is among the signed-in user's favorites" })
  favorite: boolean;
}

/** A feature's environment in the project feature list (docs/decisions-features.md). */
@ApiSchema({ name: 'featureListEnvironmentSchema' })
export class FeatureListEnvironmentDto {
  @ApiProperty({ description: 'Name of the environment' }) name: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty() variantCount: number;
  @ApiProperty() hasStrategies: boolean;
  @ApiProperty() hasEnabledStrategies: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'Left out while never seen' })
  lastSeenAt?: string;
}

const ABSENT = 'Left out when there is none';

/**
 * An item of the project feature list: the seed's Feature fields with a value, without what the
 * request already says (`project`'s archived state) or what belongs to the environment itself
 * (docs/decisions-features.md).
 */
@ApiSchema({ name: 'featureListItemSchema' })
export class FeatureListItemDto {
  @ApiProperty() name: string;
  @ApiProperty({ enum: FEATURE_TYPES }) type: string;
  @ApiPropertyOptional({ description: ABSENT }) description?: string;
  @ApiProperty() project: string;
  @ApiProperty({ description: 'true if enabled in at least one environment' }) enabled: boolean;
  @ApiProperty() stale: boolean;
  @ApiProperty() impressionData: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: [FeatureListEnvironmentDto],
    description: "By the environment's sortOrder, then name",
  })
  environments: FeatureListEnvironmentDto[];
  @ApiPropertyOptional({ type: [TagDto], description: ABSENT }) tags?: TagDto[];
  @ApiPropertyOptional({ type: [DependencyDto], description: ABSENT })
  dependencies?: DependencyDto[];
  @ApiPropertyOptional({ type: [String], description: ABSENT }) children?: string[];
  @ApiPropertyOptional({ type: LifecycleDto, description: ABSENT }) lifecycle?: LifecycleDto;
  @ApiPropertyOptional({
    type: FeaturePersonDto,
    description: 'Left out when an API token (or an import) created it',
  })
  createdBy?: FeaturePersonDto;
  @ApiPropertyOptional({ type: FeatureCollaboratorsDto, description: ABSENT })
  collaborators?: FeatureCollaboratorsDto;
  @ApiProperty({ description: "Whether it is among the signed-in user's favorites" })
  favorite: boolean;
}

@ApiSchema({ name: 'featuresSchema' })
export class FeatureListDto {
  @ApiProperty({ type: [FeatureListItemDto], description: 'Active features only, by name' })
  features: FeatureListItemDto[];
}
