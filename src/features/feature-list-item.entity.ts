import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * A listed feature's item text as the list writes it, kept with the feature's list stamp and the
 * list generation it was written from; used only while both still match (FeatureListModel).
 */
@Entity('feature_list_items')
export class FeatureListItem {
  @PrimaryColumn({ name: 'feature_name', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  featureName: string;

  @Column({ type: 'integer' })
  stamp: number;

  @Column({ type: 'integer' })
  generation: number;

  @Column({ type: 'text' })
  item: string;
}
