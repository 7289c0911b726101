import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/json-column';
import type { Variant } from './variant';

/** A feature's configuration in one environment: on/off and its variants. */
@Entity('feature_environments')
@Index(['environment', 'featureName'])
export class FeatureEnvironment {
  @PrimaryColumn({ name: 'feature_name', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  featureName: string;

  @PrimaryColumn({ name: 'environment_name', type: 'varchar', length: 100 })
  @ForeignKey('environments', { onDelete: 'CASCADE' })
  environment: string;

  @Column({ type: 'boolean', default: false })
  enabled: boolean;

  @Column({ type: 'text', default: '[]', transformer: jsonTransformer<Variant[]>([]) })
  variants: Variant[];

  @Column({ name: 'last_seen_at', type: 'datetime', nullable: true })
  lastSeenAt: Date | null;
}
