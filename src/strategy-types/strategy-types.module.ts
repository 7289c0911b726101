import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StrategyType } from './strategy-type.entity';
import { StrategyTypesService } from './strategy-types.service';

@Module({
  imports: [TypeOrmModule.forFeature([StrategyType])],
  providers: [StrategyTypesService],
  exports: [StrategyTypesService],
})
export class StrategyTypesModule {}
