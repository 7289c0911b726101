import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { StrategyType } from './strategy-type.entity';
import { StrategyTypesController } from './strategy-types.controller';
import { StrategyTypesService } from './strategy-types.service';
import { StrategyTypesStore } from './strategy-types.store';

@Module({
  imports: [TypeOrmModule.forFeature([StrategyType]), FeatureStoresModule],
  controllers: [StrategyTypesController],
  providers: [StrategyTypesService, StrategyTypesStore],
  exports: [StrategyTypesService, StrategyTypesStore],
})
export class StrategyTypesModule {}
