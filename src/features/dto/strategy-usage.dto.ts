import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** One strategy that uses a context field or a segment (Unleash's usage lists). */
@ApiSchema({ name: 'strategyUsageSchema' })
export class StrategyUsageDto {
  @ApiProperty() id: string;
  @ApiProperty() featureName: string;
  @ApiProperty() projectId: string;
  @ApiProperty() environment: string;
  @ApiProperty({ description: "The name of the strategy's type" }) strategyName: string;
}
