import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';

export const FEATURE_TYPES = [
  'release',
  'experiment',
  'operational',
  'kill-switch',
  'permission',
] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

/** A project's active features by creation time: the feature search's page (migration 1764200000000). */
@Index(['projectId', 'archivedAt', 'createdAt'])
/** A project's active features by name: the project list's order (migration 1764800000000). */
@Index(['projectId', 'archivedAt', 'name'])
@Entity('features')
export class Feature {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'project_id', type: 'varchar', length: 100 })
  @ForeignKey('projects', { onDelete: 'RESTRICT' })
  projectId: string;

  @Column({ type: 'varchar', length: 100, default: 'release' })
  type: FeatureType;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  stale: boolean;

  @Column({ name: 'impression_data', type: 'boolean', default: false })
  impressionData: boolean;

  /** Set while the feature is archived; archived features keep all their configuration. */
  @Column({ name: 'archived_at', type: 'datetime', nullable: true })
  archivedAt: Date | null;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;

  /**
   * Flipped (0/1) by writes that rely on this row, so that they conflict with each other on
   * Galera too (migration 1764300000000-write-claims; docs/decisions-galera.md). Never read;
   * left out of inserts, which take the database's default (the app's metadata has none).
   */
  @Column({ name: 'write_claim', type: 'integer', default: 0, select: false, insert: false })
  writeClaim?: number;

  /**
   * Bumped by every change to what the feature's list item shows, in that change's transaction
   * (FeatureListModel); a kept item is used only while its stamp equals this one. Never shown.
   */
  @Column({ name: 'list_stamp', type: 'integer', default: 0, select: false, insert: false })
  listStamp?: number;
}
