import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/json-column';

/** The child feature is only on when its parent is (optionally: on with one of these variants). */
@Entity('feature_dependencies')
export class FeatureDependency {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  child: string;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  @Index()
  parent: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'text', default: '[]', transformer: jsonTransformer<string[]>([]) })
  variants: string[];
}
