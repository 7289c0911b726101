import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/json-column';
import type { Variant } from './variant';

/** A feature's configuration in one environment: on/off and its variants. */
@Entity('feature_environments')
export class FeatureEnvironment {
  @PrimaryColumn({ name: 'feature_name', type: 'varchar' })
  featureName: string;

  @PrimaryColumn({ name: 'environment_name', type: 'varchar' })
  environment: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ type: 'text', transformer: jsonTransformer<Variant[]>([]) })
  variants: Variant[];

  @Column({ name: 'last_seen_at', type: 'datetime', precision: 3, nullable: true })
  lastSeenAt: Date | null;
}
