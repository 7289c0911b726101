import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { FeatureEnvironmentDto, LifecycleDto, TagDto } from './feature.dto';

const filter = (description: string, example: string) =>
  ApiPropertyOptional({ type: String, description, example });

/**
 * The query of `GET /api/admin/search/features`, in Unleash's `OPERATOR:value,value` form. The
 * strings are parsed by feature-search-query.ts, which answers 400 for an operator or value it
 * does not know; a parameter not listed here is refused by the global pipe.
 */
export class FeatureSearchQueryDto {
  @filter(
    'Free text: comma-separated terms, any of which matches a name, description or tag',
    'checkout',
  )
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  query?: string;

  @filter('IS, IS_NOT, IS_ANY_OF, IS_NONE_OF with project ids', 'IS:default')
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  project?: string;

  @filter('IS, IS_NOT, IS_ANY_OF, IS_NONE_OF with feature types', 'IS_ANY_OF:release,experiment')
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  type?: string;

  @filter(
    'INCLUDE, INCLUDE_ANY_OF, INCLUDE_ALL_OF, DO_NOT_INCLUDE, EXCLUDE_IF_ANY_OF, EXCLUDE_ALL with type:value tags',
    'INCLUDE:simple:beta',
  )
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  tag?: string;

  @filter('IS, IS_NOT, IS_ANY_OF, IS_NONE_OF with stale, active, potentially-stale', 'IS:stale')
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  state?: string;

  @filter('IS:true or IS:false (default: active features only)', 'IS:true')
  @IsOptional()
  @IsString()
  @MaxLength(100)
  archived?: string;

  @filter('IS, IS_NOT, IS_ANY_OF, IS_NONE_OF with lifecycle stages', 'IS:live')
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  lifecycle?: string;

  @filter('IS_BEFORE or IS_ON_OR_AFTER with a date (YYYY-MM-DD, UTC)', 'IS_ON_OR_AFTER:2026-01-01')
  @IsOptional()
  @IsString()
  @MaxLength(100)
  createdAt?: string;

  @filter(
    'IS_BEFORE or IS_ON_OR_AFTER with a date (YYYY-MM-DD, UTC): last seen in any environment; never-seen features match neither',
    'IS_BEFORE:2026-01-01',
  )
  @IsOptional()
  @IsString()
  @MaxLength(100)
  lastSeenAt?: string;

  @filter('IS, IS_NOT, IS_ANY_OF, IS_NONE_OF with user ids', 'IS:1')
  @IsOptional()
  @IsString()
  @MaxLength(10000)
  createdBy?: string;

  @filter(
    'createdAt (default), name, type, stale, project, lastSeenAt or environment:<name>',
    'name',
  )
  @IsOptional()
  @IsString()
  @MaxLength(200)
  sortBy?: string;

  @filter('asc (default) or desc', 'desc')
  @IsOptional()
  @IsString()
  @MaxLength(10)
  sortOrder?: string;

  @filter('true or false; accepted for the UI, without effect: there are no favorites', 'true')
  @IsOptional()
  @IsString()
  @MaxLength(10)
  favoritesFirst?: string;

  @filter('Features to skip, 0 or more (default 0)', '0')
  @IsOptional()
  @IsString()
  @MaxLength(20)
  offset?: string;

  @filter('Page size, 1 to 1000 (default 50)', '50')
  @IsOptional()
  @IsString()
  @MaxLength(20)
  limit?: string;
}

@ApiSchema({ name: 'featureCreatorSchema' })
export class FeatureCreatorDto {
  @ApiProperty({ description: '0 when unknown (features created with an API token)' }) id: number;
  @ApiProperty() name: string;
  @ApiProperty() imageUrl: string;
}

@ApiSchema({ name: 'featureSearchResponseSchema' })
export class FeatureSearchItemDto {
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['parent', 'child', null] })
  dependencyType: 'parent' | 'child' | null;
  @ApiProperty() type: string;
  @ApiProperty() project: string;
  @ApiProperty() stale: boolean;
  @ApiProperty({ description: "Whether it is among the signed-in user's favorites" })
  favorite: boolean;
  @ApiProperty() impressionData: boolean;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: String, nullable: true }) archivedAt: string | null;
  @ApiProperty({ type: String, nullable: true }) lastSeenAt: string | null;
  @ApiProperty({ type: FeatureCreatorDto }) createdBy: FeatureCreatorDto;
  @ApiProperty({ type: [FeatureEnvironmentDto] }) environments: FeatureEnvironmentDto[];
  @ApiProperty({ type: [String], description: 'Names of the segments its strategies use' })
  segments: string[];
  @ApiProperty({ type: [TagDto] }) tags: TagDto[];
  @ApiProperty({ type: LifecycleDto, nullable: true }) lifecycle: LifecycleDto | null;
}

@ApiSchema({ name: 'searchFeaturesSchema' })
export class FeatureSearchResultDto {
  @ApiProperty({ type: [FeatureSearchItemDto] }) features: FeatureSearchItemDto[];
  @ApiProperty({ description: 'How many features match, over all pages' }) total: number;
}
