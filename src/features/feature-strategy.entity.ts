import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';
import { jsonTransformer } from '../database/json-column';
import type { StrategyVariant } from './variant';

@Entity('feature_strategies')
@Index(['environment', 'featureName', 'sortOrder'])
// The list's strategy flags per feature and environment, from the index alone (issue 15).
@Index(['featureName', 'environment', 'disabled'])
export class FeatureStrategy {
  /** A UUID. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'feature_name', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  featureName: string;

  @Column({ name: 'environment_name', type: 'varchar', length: 100 })
  @ForeignKey('environments', { onDelete: 'CASCADE' })
  environment: string;

  /** The strategy type. */
  @Column({ name: 'strategy_name', type: 'varchar', length: 100 })
  @ForeignKey('strategy_types', { onDelete: 'RESTRICT' })
  name: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  title: string | null;

  @Column({
    type: 'text',
    default: '{}',
    transformer: jsonTransformer<Record<string, string>>({}),
  })
  parameters: Record<string, string>;

  @Column({ type: 'text', default: '[]', transformer: jsonTransformer<Constraint[]>([]) })
  constraints: Constraint[];

  @Column({ type: 'text', default: '[]', transformer: jsonTransformer<StrategyVariant[]>([]) })
  variants: StrategyVariant[];

  @Column({ name: 'sort_order', type: 'integer', default: 0 })
  sortOrder: number;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
