import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

export const LIFECYCLE_STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** One row per stage a feature has entered, with when it entered it. */
@Entity('feature_lifecycles')
export class FeatureLifecycle {
  @PrimaryColumn({ name: 'feature_name', type: 'varchar', length: 100 })
  @ForeignKey('features', { onDelete: 'CASCADE' })
  featureName: string;

  @PrimaryColumn({ type: 'varchar', length: 20 })
  stage: LifecycleStage;

  @Column({ name: 'entered_stage_at', type: 'datetime' })
  enteredStageAt: Date;

  @Column({ type: 'varchar', length: 20, nullable: true })
  status: string | null;

  @Column({ name: 'status_value', type: 'varchar', length: 255, nullable: true })
  statusValue: string | null;
}
