import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { jsonTransformer } from '../database/json-column';
import type { StrategyVariant } from './variant';

@Entity('feature_strategies')
export class FeatureStrategy {
  /** A UUID. */
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ name: 'feature_name', type: 'varchar' })
  featureName: string;

  @Column({ name: 'environment_name', type: 'varchar' })
  environment: string;

  /** The strategy type. */
  @Column({ name: 'strategy_name', type: 'varchar' })
  name: string;

  @Column({ type: 'varchar', nullable: true })
  title: string | null;

  @Column({ type: 'text', transformer: jsonTransformer<Record<string, string>>({}) })
  parameters: Record<string, string>;

  @Column({ type: 'text', transformer: jsonTransformer<Constraint[]>([]) })
  constraints: Constraint[];

  @Column({ type: 'text', transformer: jsonTransformer<StrategyVariant[]>([]) })
  variants: StrategyVariant[];

  @Column({ name: 'sort_order', type: 'integer' })
  sortOrder: number;

  @Column({ type: 'boolean' })
  disabled: boolean;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
