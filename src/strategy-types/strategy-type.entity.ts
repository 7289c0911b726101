import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/json-column';

export interface StrategyParameterDefinition {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

@Entity('strategy_types')
export class StrategyType {
  @PrimaryColumn({ type: 'varchar' })
  name: string;

  @Column({ type: 'varchar', nullable: true })
  title: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', transformer: jsonTransformer<StrategyParameterDefinition[]>([]) })
  parameters: StrategyParameterDefinition[];

  /** The types that come with the service; they cannot be changed or deleted. */
  @Column({ name: 'built_in', type: 'boolean' })
  builtIn: boolean;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
