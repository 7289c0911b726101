import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsNestedObject, IsOptionalNotNull, IsResourceName } from '../../common/validators';
import { CreateContextFieldDto } from '../../context-fields/dto/create-context-field.dto';
import { CreateDependencyDto } from '../../features/dto/create-dependency.dto';
import { FEATURE_TYPES } from '../../features/dto/create-feature.dto';
import { CreateStrategyDto } from '../../features/dto/strategy.dto';
import { VariantInputDto } from '../../features/dto/variant.dto';
import { CreateTagTypeDto } from '../../tags/dto/create-tag-type.dto';

/*
 * The import body: Unleash's importTogglesSchema, `{project, environment, data}` with `data` an
 * ExportResult as our export or Unleash 7.5.1's writes it. Item fields are validated as the
 * admin routes validate them; the fields Unleash emits that we do not store are accepted and
 * ignored (docs/decisions-import.md lists them). A feature name is only checked for being a
 * string here: a name that breaks the name rule is one of the validate document's errors, so
 * that /validate can report it rather than answer 400.
 */

export const MAX_ITEMS = 100000;

@ApiSchema({ name: 'importFeatureSchema' })
export class ImportFeatureDto {
  @ApiProperty() @IsString() @MaxLength(1000) name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  description?: string | null;

  @ApiPropertyOptional({ enum: FEATURE_TYPES, default: 'release' })
  @IsOptionalNotNull()
  @IsIn(FEATURE_TYPES, { message: `type must be one of ${FEATURE_TYPES.join(', ')}` })
  type?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Ignored: the body’s project wins',
  })
  @IsOptional()
  @IsString()
  project?: string | null;

  @ApiPropertyOptional() @IsOptionalNotNull() @IsBoolean() stale?: boolean;
  @ApiPropertyOptional() @IsOptionalNotNull() @IsBoolean() impressionData?: boolean;

  @ApiPropertyOptional({ description: 'Archived features are skipped' })
  @IsOptionalNotNull()
  @IsBoolean()
  archived?: boolean;
}

/** A strategy as exported: the create body plus its old id (ignored) and its feature. */
@ApiSchema({ name: 'importFeatureStrategySchema' })
export class ImportStrategyDto extends CreateStrategyDto {
  @ApiPropertyOptional({ description: 'Ignored: imported strategies get new ids' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  id?: string;

  @ApiProperty() @IsString() @MaxLength(1000) featureName: string;
}

@ApiSchema({ name: 'importFeatureEnvironmentSchema' })
export class ImportFeatureEnvironmentDto {
  @ApiPropertyOptional({ description: 'The feature name, as Unleash also writes it' })
  @IsOptional()
  @IsString()
  name?: string;

  @ApiProperty() @IsString() @MaxLength(1000) featureName: string;

  @ApiPropertyOptional({ description: 'Ignored: the body’s environment wins' })
  @IsOptional()
  @IsString()
  environment?: string;

  @ApiProperty() @IsBoolean() enabled: boolean;

  @ApiPropertyOptional({ type: [VariantInputDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => VariantInputDto)
  variants?: VariantInputDto[];
}

/** A context field as exported; Unleash adds `project` (accepted, ignored). */
@ApiSchema({ name: 'importContextFieldSchema' })
export class ImportContextFieldDto extends CreateContextFieldDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Unleash’s; ignored' })
  @Allow()
  project?: unknown;
}

@ApiSchema({ name: 'importSegmentSchema' })
export class ImportSegmentDto {
  @ApiProperty() @IsInt() @Min(0) id: number;
  @ApiProperty() @IsString() @Length(1, 100) name: string;
}

@ApiSchema({ name: 'importFeatureTagSchema' })
export class ImportFeatureTagDto {
  @ApiProperty() @IsString() @MaxLength(1000) featureName: string;
  @ApiProperty() @IsResourceName() tagType: string;

  @ApiProperty({ minLength: 2, maxLength: 50 })
  @IsString()
  @Length(2, 50, { message: 'tagValue must be 2 to 50 characters long' })
  tagValue: string;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Ignored' })
  @IsOptional()
  @IsInt()
  createdByUserId?: number | null;
}

/** A tag type as exported; Unleash adds `color` (checked as tag types check it, then ignored). */
@ApiSchema({ name: 'importTagTypeSchema' })
export class ImportTagTypeDto extends CreateTagTypeDto {}

@ApiSchema({ name: 'importDependencySchema' })
export class ImportDependencyDto {
  @ApiProperty({ description: 'The child feature' }) @IsString() @MaxLength(1000) feature: string;

  @ApiProperty({ type: [CreateDependencyDto] })
  @IsArray()
  @ArrayMaxSize(100)
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CreateDependencyDto)
  dependencies: CreateDependencyDto[];
}

const list = (type: () => new () => object, required = false) => {
  const decorators = [
    IsArray(),
    ArrayMaxSize(MAX_ITEMS),
    IsNestedObject({ each: true }),
    ValidateNested({ each: true }),
    Type(type),
  ];
  return (target: object, key: string) => {
    if (!required) IsOptional()(target, key);
    for (const decorate of decorators) decorate(target, key);
  };
};

/**
 * The ExportResult. Unleash requires features, featureStrategies and tagTypes; the other lists
 * may be left out. Top-level collections this service does not know (Unleash's `links`) are
 * removed before validation and ignored.
 */
@ApiSchema({ name: 'importDataSchema' })
export class ImportDataDto {
  @ApiProperty({ type: [ImportFeatureDto] })
  @list(() => ImportFeatureDto, true)
  features: ImportFeatureDto[];

  @ApiProperty({ type: [ImportStrategyDto] })
  @list(() => ImportStrategyDto, true)
  featureStrategies: ImportStrategyDto[];

  @ApiProperty({ type: [ImportTagTypeDto] })
  @list(() => ImportTagTypeDto, true)
  tagTypes: ImportTagTypeDto[];

  @ApiPropertyOptional({ type: [ImportFeatureEnvironmentDto] })
  @list(() => ImportFeatureEnvironmentDto)
  featureEnvironments?: ImportFeatureEnvironmentDto[];

  @ApiPropertyOptional({ type: [ImportContextFieldDto] })
  @list(() => ImportContextFieldDto)
  contextFields?: ImportContextFieldDto[];

  @ApiPropertyOptional({ type: [ImportSegmentDto] })
  @list(() => ImportSegmentDto)
  segments?: ImportSegmentDto[];

  @ApiPropertyOptional({ type: [ImportFeatureTagDto] })
  @list(() => ImportFeatureTagDto)
  featureTags?: ImportFeatureTagDto[];

  @ApiPropertyOptional({ type: [ImportDependencyDto] })
  @list(() => ImportDependencyDto)
  dependencies?: ImportDependencyDto[];
}

/** The collections of ImportDataDto; any other top-level key of `data` is ignored. */
export const KNOWN_COLLECTIONS: ReadonlySet<string> = new Set([
  'features',
  'featureStrategies',
  'tagTypes',
  'featureEnvironments',
  'contextFields',
  'segments',
  'featureTags',
  'dependencies',
]);

@ApiSchema({ name: 'importTogglesSchema' })
export class ImportRequestDto {
  @ApiProperty({ description: 'The project to import into (wins over the file’s)' })
  @IsResourceName()
  project: string;

  @ApiProperty({ description: 'The environment to import into (wins over the file’s)' })
  @IsResourceName()
  environment: string;

  @ApiProperty({ type: ImportDataDto })
  // ValidateNested alone lets a missing `data` (or an array) through to the service.
  @IsNestedObject()
  @ValidateNested()
  @Type(() => ImportDataDto)
  data: ImportDataDto;
}
