import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsResourceName, IsOptionalNotNull } from '../../common/validators';
import { FEATURE_TYPES, FeatureType } from '../feature.entity';

/** For other modules' DTOs, which may not import the entity. */
export { FEATURE_TYPES };

const TYPE_MESSAGE = `type must be one of ${FEATURE_TYPES.join(', ')}`;

@ApiSchema({ name: 'createFeatureSchema' })
export class CreateFeatureDto {
  @ApiProperty({ description: 'Unique across all projects' })
  @IsResourceName()
  name: string;

  @ApiPropertyOptional({ enum: FEATURE_TYPES, default: 'release' })
  @IsOptional()
  @IsIn(FEATURE_TYPES, { message: TYPE_MESSAGE })
  type?: FeatureType;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  impressionData?: boolean;
}

/**
 * PATCH as a partial object (the alternative to a JSON Patch array): a missing field is left
 * unchanged; `description: null` clears the description. Not a PartialType of the create DTO,
 * whose IsOptional would let `null` through for fields that cannot be cleared.
 */
@ApiSchema({ name: 'updateFeatureSchema' })
export class UpdateFeatureDto {
  @ApiPropertyOptional({ enum: FEATURE_TYPES })
  @IsOptionalNotNull()
  @IsIn(FEATURE_TYPES, { message: TYPE_MESSAGE })
  type?: FeatureType;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  impressionData?: boolean;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  stale?: boolean;
}
