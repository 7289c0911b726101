import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { LIFECYCLE_STAGES } from '../feature-lifecycle.entity';

export const COMPLETION_STATUSES = ['kept', 'discarded'] as const;

@ApiSchema({ name: 'featureLifecycleCompletedSchema' })
export class CompleteLifecycleDto {
  @ApiPropertyOptional({ enum: COMPLETION_STATUSES, default: 'kept' })
  @IsOptional()
  @IsIn(COMPLETION_STATUSES, { message: `status must be one of ${COMPLETION_STATUSES.join(', ')}` })
  status?: (typeof COMPLETION_STATUSES)[number];

  @ApiPropertyOptional({ description: 'E.g. the variant that was kept' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  statusValue?: string;
}

/** One stage a feature has entered. */
@ApiSchema({ name: 'featureLifecycleStageSchema' })
export class LifecycleStageDto {
  @ApiProperty({ enum: LIFECYCLE_STAGES }) stage: string;
  @ApiProperty({ format: 'date-time' }) enteredStageAt: string;
  @ApiPropertyOptional({ enum: COMPLETION_STATUSES, description: 'Only on the completed stage' })
  status?: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Only on the completed stage' })
  statusValue?: string | null;
}
