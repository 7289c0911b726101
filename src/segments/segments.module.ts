import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { SegmentsStoreModule } from './segments-store.module';
import { ContextFieldsModule } from '../context-fields/context-fields.module';
import { ProjectsModule } from '../projects/projects.module';
import { Segment } from './segment.entity';
import { SegmentsController } from './segments.controller';
import { SegmentsService } from './segments.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Segment]),
    SegmentsStoreModule,
    FeatureStoresModule,
    ContextFieldsModule,
    ProjectsModule,
  ],
  controllers: [SegmentsController],
  providers: [SegmentsService],
  exports: [SegmentsService],
})
export class SegmentsModule {}
