import { Module } from '@nestjs/common';
import { ContextFieldsModule } from '../context-fields/context-fields.module';
import { EnvironmentsStoreModule } from '../environments/environments-store.module';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { ProjectsStoreModule } from '../projects/projects-store.module';
import { SegmentsStoreModule } from '../segments/segments-store.module';
import { TagsModule } from '../tags/tags.module';
import { ExportController } from './export.controller';
import { ExportService } from './export.service';

/**
 * The export of rules.md §6. It reads the other modules' tables through their stores, each with a
 * set-based read inside one read transaction; nothing imports this module.
 */
@Module({
  imports: [
    EnvironmentsStoreModule,
    ProjectsStoreModule,
    FeatureStoresModule,
    SegmentsStoreModule,
    TagsModule,
    ContextFieldsModule,
  ],
  controllers: [ExportController],
  providers: [ExportService],
})
export class ExportModule {}
