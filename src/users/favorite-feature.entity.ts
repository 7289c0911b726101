import { Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A feature a user marked as a favourite. */
@Entity('favorite_features')
export class FavoriteFeature {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: number;

  @PrimaryColumn({ name: 'feature_name', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  @Index()
  featureName: string;
}
