import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FeatureStoresModule } from '../features/feature-stores.module';
import { StrategyType } from './strategy-type.entity';
import { StrategyTypesController } from './strategy-types.controller';
import { StrategyTypesService } from './strategy-types.service';

@Module({
  imports: [TypeOrmModule.forFeature([StrategyType]), FeatureStoresModule],
  controllers: [StrategyTypesController],
  providers: [StrategyTypesService],
  exports: [StrategyTypesService],
})
export class StrategyTypesModule {}
