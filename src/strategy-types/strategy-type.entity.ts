import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';
import { jsonTransformer } from '../database/json-column';

export interface StrategyParameterDefinition {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

@Entity('strategy_types')
export class StrategyType {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  title: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({
    type: 'text',
    default: '[]',
    transformer: jsonTransformer<StrategyParameterDefinition[]>([]),
  })
  parameters: StrategyParameterDefinition[];

  /** The types that come with the service; they cannot be changed or deleted. */
  @Column({ name: 'built_in', type: 'boolean', default: false })
  builtIn: boolean;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
