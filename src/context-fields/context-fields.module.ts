import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { SegmentsStoreModule } from '../segments/segments-store.module';
import { ConstraintValidator } from './constraint-validator.service';
import { ContextField } from './context-field.entity';
import { ConstraintsController } from './constraints.controller';
import { ContextFieldsController } from './context-fields.controller';
import { ContextFieldsService } from './context-fields.service';
import { ContextFieldsStore } from './context-fields.store';

@Module({
  imports: [TypeOrmModule.forFeature([ContextField]), FeatureStoresModule, SegmentsStoreModule],
  controllers: [ContextFieldsController, ConstraintsController],
  providers: [ConstraintValidator, ContextFieldsService, ContextFieldsStore],
  exports: [ConstraintValidator, ContextFieldsStore],
})
export class ContextFieldsModule {}
