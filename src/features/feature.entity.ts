import { Column, Entity, PrimaryColumn } from 'typeorm';

export const FEATURE_TYPES = [
  'release',
  'experiment',
  'operational',
  'kill-switch',
  'permission',
] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

@Entity('features')
export class Feature {
  @PrimaryColumn({ type: 'varchar' })
  name: string;

  @Column({ name: 'project_id', type: 'varchar' })
  projectId: string;

  @Column({ type: 'varchar' })
  type: FeatureType;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean' })
  stale: boolean;

  @Column({ name: 'impression_data', type: 'boolean' })
  impressionData: boolean;

  /** Set while the feature is archived; archived features keep all their configuration. */
  @Column({ name: 'archived_at', type: 'datetime', precision: 3, nullable: true })
  archivedAt: Date | null;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
