import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'strategyParameterResponseSchema' })
export class StrategyParameterResponseDto {
  @ApiProperty() name: string;
  @ApiProperty() type: string;
  @ApiProperty() description: string;
  @ApiProperty() required: boolean;
}

@ApiSchema({ name: 'strategySchema' })
export class StrategyTypeDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) title: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Same as title' })
  displayName: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ description: 'false for the built-in types, which cannot be changed' })
  editable: boolean;
  @ApiProperty({ description: 'Always false: deprecation is not supported' }) deprecated: boolean;
  @ApiProperty({ type: [StrategyParameterResponseDto] })
  parameters: StrategyParameterResponseDto[];
}

@ApiSchema({ name: 'strategiesSchema' })
export class StrategyTypeListDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: [StrategyTypeDto] }) strategies: StrategyTypeDto[];
}
