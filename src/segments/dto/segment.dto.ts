import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ConstraintDto } from '../../common/constraints/constraint.dto';

@ApiSchema({ name: 'adminSegmentSchema' })
export class SegmentDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) project: string | null;
  @ApiProperty({ type: [ConstraintDto] }) constraints: ConstraintDto[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

@ApiSchema({ name: 'segmentsSchema' })
export class SegmentListDto {
  @ApiProperty({ type: [SegmentDto] }) segments: SegmentDto[];
}
