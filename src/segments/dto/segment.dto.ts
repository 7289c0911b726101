import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ConstraintDto } from '../../common/constraints/constraint.dto';
import { StrategyUsageDto } from '../../features/dto/strategy-usage.dto';

@ApiSchema({ name: 'adminSegmentSchema' })
export class SegmentDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) project: string | null;
  @ApiProperty({ type: [ConstraintDto] }) constraints: ConstraintDto[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Features (not archived) whose strategies use the segment',
  })
  usedInFeatures: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Projects of those features' })
  usedInProjects: number | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

@ApiSchema({ name: 'segmentStrategiesSchema' })
export class SegmentStrategiesDto {
  @ApiProperty({ type: [StrategyUsageDto] }) strategies: StrategyUsageDto[];
  @ApiProperty({
    type: [Object],
    description: 'Strategies of pending change requests; always empty (no change requests here)',
  })
  changeRequestStrategies: never[];
}

@ApiSchema({ name: 'segmentsSchema' })
export class SegmentListDto {
  @ApiProperty({ type: [SegmentDto] }) segments: SegmentDto[];
}
