import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row (id 1) whose number is bumped by changes that reach many list items at once; a kept
 * item written under an older number is not used (FeatureListModel).
 */
@Entity('feature_list_generation')
export class FeatureListGeneration {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'integer', default: 0 })
  generation: number;
}
