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

  /**
   * Flipped (0/1) by writes that rely on this row, so that they conflict with each other on
   * Galera too (migration 1764300000000-write-claims; docs/decisions-galera.md). Never read;
   * left out of inserts, which take the database's default (the app's metadata has none).
   */
  @Column({ name: 'write_claim', type: 'integer', default: 0, select: false, insert: false })
  writeClaim?: number;
}
