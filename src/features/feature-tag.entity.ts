import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { CURRENT_TIMESTAMP_MS } from '../database/flagkeeper-data-source';

@Entity('feature_tags')
export class FeatureTag {
  @PrimaryColumn({ name: 'feature_name', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  featureName: string;

  @PrimaryColumn({ name: 'tag_type', type: 'varchar', length: 100 })
  @ForeignKey('tag_types', { onDelete: 'CASCADE' })
  tagType: string;

  @PrimaryColumn({ name: 'tag_value', type: 'varchar', length: 50 })
  @Index()
  tagValue: string;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime', default: CURRENT_TIMESTAMP_MS })
  createdAt: Date;
}
