import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('feature_tags')
export class FeatureTag {
  @PrimaryColumn({ name: 'feature_name', type: 'varchar' })
  featureName: string;

  @PrimaryColumn({ name: 'tag_type', type: 'varchar' })
  tagType: string;

  @PrimaryColumn({ name: 'tag_value', type: 'varchar' })
  tagValue: string;

  @Column({ name: 'created_by_user_id', type: 'integer', nullable: true })
  createdByUserId: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
