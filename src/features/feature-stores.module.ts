import { Module } from '@nestjs/common';
import { EnvironmentsStoreModule } from '../environments/environments-store.module';
import { DependenciesStore } from './dependencies.store';
import { ExportRunsStore } from './export-runs.store';
import { FeatureEnvironmentsStore } from './feature-environments.store';
import { FeatureReadModel } from './feature-read.model';
import { FeatureTagsStore } from './feature-tags.store';
import { FeaturesStore } from './features.store';
import { LifecycleStore } from './lifecycle.store';
import { StrategiesStore } from './strategies.store';

const STORES = [
  FeaturesStore,
  FeatureEnvironmentsStore,
  StrategiesStore,
  FeatureTagsStore,
  DependenciesStore,
  LifecycleStore,
  ExportRunsStore,
  FeatureReadModel,
];

/**
 * The feature tables' stores and read model, in a module of their own that imports no service:
 * projects, segments, context fields and the clone call these stores, while the features module
 * itself imports those modules, so the stores must not live behind FeaturesModule.
 */
@Module({ imports: [EnvironmentsStoreModule], providers: STORES, exports: STORES })
export class FeatureStoresModule {}
