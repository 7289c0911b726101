import { Column, Entity, PrimaryColumn } from 'typeorm';

export const LIFECYCLE_STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** One row per stage a feature has entered, with when it entered it. */
@Entity('feature_lifecycles')
export class FeatureLifecycle {
  @PrimaryColumn({ name: 'feature_name', type: 'varchar' })
  featureName: string;

  @PrimaryColumn({ type: 'varchar' })
  stage: LifecycleStage;

  @Column({ name: 'entered_stage_at', type: 'datetime', precision: 3 })
  enteredStageAt: Date;

  @Column({ type: 'varchar', nullable: true })
  status: string | null;

  @Column({ name: 'status_value', type: 'varchar', nullable: true })
  statusValue: string | null;
}
