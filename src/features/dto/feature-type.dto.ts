import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'featureTypeSchema' })
export class FeatureTypeDto {
  @ApiProperty({ example: 'release' }) id: string;
  @ApiProperty({ example: 'Release' }) name: string;
  @ApiProperty() description: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Days after which a feature of this type is expected to be removed; null: never',
  })
  lifetimeDays: number | null;
}

@ApiSchema({ name: 'featureTypesSchema' })
export class FeatureTypeListDto {
  @ApiProperty({ example: 1 }) version: 1;
  @ApiProperty({ type: [FeatureTypeDto] }) types: FeatureTypeDto[];
}

@ApiSchema({ name: 'featureLifecycleCountSchema' })
export class LifecycleCountDto {
  @ApiProperty() initial: number;
  @ApiProperty() preLive: number;
  @ApiProperty() live: number;
  @ApiProperty() completed: number;
  @ApiProperty() archived: number;
}
