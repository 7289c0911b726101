import { Module } from '@nestjs/common';
import { ContextFieldsModule } from '../context-fields/context-fields.module';
import { EnvironmentsStoreModule } from '../environments/environments-store.module';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { ProjectsStoreModule } from '../projects/projects-store.module';
import { SegmentsStoreModule } from '../segments/segments-store.module';
import { StrategyTypesModule } from '../strategy-types/strategy-types.module';
import { TagsModule } from '../tags/tags.module';
import { ImportController } from './import.controller';
import { ImportService } from './import.service';

/**
 * Validate and import (issue 14), the other half of the export: every table is written through
 * its owner's store, in one transaction; nothing imports this module.
 */
@Module({
  imports: [
    EnvironmentsStoreModule,
    ProjectsStoreModule,
    FeatureStoresModule,
    SegmentsStoreModule,
    TagsModule,
    ContextFieldsModule,
    StrategyTypesModule,
  ],
  controllers: [ImportController],
  providers: [ImportService],
})
export class ImportModule {}
