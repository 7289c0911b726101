import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import { IsResourceName } from '../../common/validators';

@ApiSchema({ name: 'createDependentFeatureSchema' })
export class CreateDependencyDto {
  @ApiProperty({ description: 'Name of the parent feature' })
  @IsResourceName()
  feature: string;

  @ApiPropertyOptional({ default: true, description: 'Whether the parent must be enabled' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: [String],
    description: 'Variants the parent must resolve to; only with enabled: true',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  variants?: string[];
}
