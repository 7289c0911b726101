import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { StrategyType } from './strategy-type.entity';

@Injectable()
export class StrategyTypesService {
  constructor(@InjectRepository(StrategyType) private readonly types: Repository<StrategyType>) {}

  /** The strategy type of that name, or null (a strategy body naming it is then a 400). */
  find(name: string): Promise<StrategyType | null> {
    return this.types.findOne({ where: { name } });
  }
}
