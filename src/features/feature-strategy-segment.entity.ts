import { Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A strategy uses a segment; the segment itself is shared, not copied. */
@Entity('feature_strategy_segments')
export class FeatureStrategySegment {
  @PrimaryColumn({ name: 'strategy_id', type: 'varchar', length: 36 })
  @ForeignKey('feature_strategies', { onDelete: 'CASCADE' })
  strategyId: string;

  @PrimaryColumn({ name: 'segment_id', type: 'integer' })
  @ForeignKey('segments', { onDelete: 'RESTRICT' })
  @Index()
  segmentId: number;
}
