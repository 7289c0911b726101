import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { StrategyUsageDto } from '../../features/dto/strategy-usage.dto';
import { LegalValueDto } from './create-context-field.dto';

/** The seed's ContextField. */
@ApiSchema({ name: 'contextFieldSchema' })
export class ContextFieldDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() stickiness: boolean;
  @ApiProperty() sortOrder: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) createdAt: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Features (not archived) whose strategy constraints use the field',
  })
  usedInFeatures: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Projects of those features',
  })
  usedInProjects: number | null;
  @ApiProperty({ type: [LegalValueDto], description: 'In the order they were given' })
  legalValues: LegalValueDto[];
}

@ApiSchema({ name: 'contextFieldStrategiesSchema' })
export class ContextFieldStrategiesDto {
  @ApiProperty({ type: [StrategyUsageDto] }) strategies: StrategyUsageDto[];
}
