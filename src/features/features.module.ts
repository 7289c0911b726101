import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContextFieldsModule } from '../context-fields/context-fields.module';
import { EnvironmentsModule } from '../environments/environments.module';
import { ProjectsModule } from '../projects/projects.module';
import { SegmentsModule } from '../segments/segments.module';
import { StrategyTypesModule } from '../strategy-types/strategy-types.module';
import { TagsModule } from '../tags/tags.module';
import { UsersModule } from '../users/users.module';
import { FavoritesController } from './favorites.controller';
import { FeaturePeopleService } from './feature-people.service';
import { ArchiveController } from './archive.controller';
import { DependenciesController } from './dependencies.controller';
import { DependenciesService } from './dependencies.service';
import { DependencyOptionsController } from './dependency-options.controller';
import { Feature } from './feature.entity';
import { FeatureDependency } from './feature-dependency.entity';
import { FeatureEnvironment } from './feature-environment.entity';
import { FeatureEnvironmentsController } from './feature-environments.controller';
import { FeatureEnvironmentsService } from './feature-environments.service';
import { FeatureLifecycle } from './feature-lifecycle.entity';
import { FeatureLookup } from './feature-lookup';
import { FeatureStoresModule } from './feature-stores.module';
import { FeatureStrategy } from './feature-strategy.entity';
import { FeatureStrategySegment } from './feature-strategy-segment.entity';
import { FeatureTag } from './feature-tag.entity';
import { FeatureTagsController } from './feature-tags.controller';
import { FeatureTagsService } from './feature-tags.service';
import { FeatureSearchController } from './feature-search.controller';
import { FeatureSearchModel } from './feature-search.model';
import { FeatureListGeneration } from './feature-list-generation.entity';
import { FeatureListItem } from './feature-list-item.entity';
import { ExportKeptRun } from './export-kept-run.entity';
import { FeatureListModel } from './feature-list.model';
import { FeatureSearchService } from './feature-search.service';
import { FeatureTypesController } from './feature-types.controller';
import { FeaturesController } from './features.controller';
import { FeatureValidationController } from './feature-validation.controller';
import { LifecycleCountController } from './lifecycle-count.controller';
import { SegmentsStoreModule } from '../segments/segments-store.module';
import { FeaturesService } from './features.service';
import { LifecycleController } from './lifecycle.controller';
import { LifecycleService } from './lifecycle.service';
import { StrategiesController } from './strategies.controller';
import { StrategiesService } from './strategies.service';
import { VariantsController } from './variants.controller';
import { VariantsService } from './variants.service';

/**
 * Features and their per-environment configuration. Other modules read features through
 * FeatureStoresModule: the stores of the feature tables and FeatureReadModel.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Feature,
      FeatureEnvironment,
      FeatureStrategy,
      FeatureStrategySegment,
      FeatureTag,
      FeatureDependency,
      FeatureLifecycle,
      FeatureListItem,
      FeatureListGeneration,
      ExportKeptRun,
    ]),
    FeatureStoresModule,
    ProjectsModule,
    EnvironmentsModule,
    ContextFieldsModule,
    SegmentsModule,
    SegmentsStoreModule,
    StrategyTypesModule,
    TagsModule,
    UsersModule,
  ],
  controllers: [
    FeaturesController,
    FeatureValidationController,
    ArchiveController,
    FeatureEnvironmentsController,
    StrategiesController,
    VariantsController,
    FeatureTagsController,
    DependenciesController,
    DependencyOptionsController,
    LifecycleController,
    FeatureSearchController,
    FeatureTypesController,
    LifecycleCountController,
    FavoritesController,
  ],
  providers: [
    FeatureLookup,
    FeaturesService,
    FeatureEnvironmentsService,
    StrategiesService,
    VariantsService,
    FeatureTagsService,
    DependenciesService,
    LifecycleService,
    FeatureSearchModel,
    FeatureListModel,
    FeatureSearchService,
    FeaturePeopleService,
  ],
})
export class FeaturesModule {}
