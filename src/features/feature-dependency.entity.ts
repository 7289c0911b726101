import { Column, Entity, PrimaryColumn } from 'typeorm';
import { jsonTransformer } from '../database/json-column';

/** The child feature is only on when its parent is (optionally: on with one of these variants). */
@Entity('feature_dependencies')
export class FeatureDependency {
  @PrimaryColumn({ type: 'varchar' })
  child: string;

  @PrimaryColumn({ type: 'varchar' })
  parent: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ type: 'text', transformer: jsonTransformer<string[]>([]) })
  variants: string[];
}
