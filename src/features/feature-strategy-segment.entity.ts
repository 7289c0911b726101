import { Entity, PrimaryColumn } from 'typeorm';

/** A strategy uses a segment; the segment itself is shared, not copied. */
@Entity('feature_strategy_segments')
export class FeatureStrategySegment {
  @PrimaryColumn({ name: 'strategy_id', type: 'varchar' })
  strategyId: string;

  @PrimaryColumn({ name: 'segment_id', type: 'integer' })
  segmentId: number;
}
