import type { Constraint } from '../common/constraints/constraint';
import { parseJson, toBoolean, toIso, toNumber } from '../database/sql-values';
import type {
  DependencyDto,
  FeatureDto,
  FeatureEnvironmentDto,
  LifecycleDto,
  TagDto,
} from './dto/feature.dto';
import type { LifecycleStageDto } from './dto/lifecycle.dto';
import type { StrategyDto } from './dto/strategy.dto';
import type { FeatureType } from './feature.entity';
import { LIFECYCLE_STAGES, LifecycleStage } from './feature-lifecycle.entity';
import type { StrategyVariant, Variant } from './variant';

/*
 * Row → DTO mapping for raw SQL rows of the feature tables, the same on both databases (values go
 * through sql-values). The stores return these rows; the export maps the same rows to its own
 * items (fewer fields) and shares toDependencyDto; its strategy JSON keeps toStrategyDto's key
 * order (src/export/export.service.ts, strategyJson).
 */

/** `SELECT name, project_id, type, description, stale, impression_data, archived_at, created_at FROM features` */
export interface FeatureRow {
  name: string;
  project_id: string;
  type: string;
  description: string | null;
  stale: unknown;
  impression_data: unknown;
  archived_at: unknown;
  created_at: unknown;
}

/** feature_environments joined with environments (`type`, `sort_order`). */
export interface FeatureEnvironmentRow {
  feature_name: string;
  environment_name: string;
  enabled: unknown;
  variants: unknown;
  last_seen_at: unknown;
  type: string;
  sort_order: unknown;
}

/** `SELECT id, feature_name, environment_name, strategy_name, title, parameters, constraints, variants, sort_order, disabled FROM feature_strategies` */
export interface StrategyRow {
  id: string;
  feature_name: string;
  environment_name: string;
  strategy_name: string;
  title: string | null;
  parameters: unknown;
  constraints: unknown;
  variants: unknown;
  sort_order: unknown;
  disabled: unknown;
}

/** Strategy counts of one feature environment, for lists that leave the strategies out. */
export interface StrategyCountRow {
  feature_name: string;
  environment_name: string;
  total: unknown;
  enabled_count: unknown;
}

/** `SELECT feature_name, tag_type, tag_value, created_by_user_id FROM feature_tags` */
export interface TagRow {
  feature_name: string;
  tag_type: string;
  tag_value: string;
  created_by_user_id: unknown;
}

/** `SELECT child, parent, enabled, variants FROM feature_dependencies` */
export interface DependencyRow {
  child: string;
  parent: string;
  enabled: unknown;
  variants: unknown;
}

/** `SELECT feature_name, stage, entered_stage_at, status, status_value FROM feature_lifecycles` */
export interface LifecycleRow {
  feature_name: string;
  stage: string;
  entered_stage_at: unknown;
  status?: string | null;
  status_value?: string | null;
}

export function stageOrder(stage: string): number {
  return LIFECYCLE_STAGES.indexOf(stage as LifecycleStage);
}

/** Rows grouped by a key, keeping their order. */
export function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** The keys in the order of the export's strategy items (rules.md §6), which a test checks. */
export function toStrategyDto(row: StrategyRow, segmentIds: number[] = []): StrategyDto {
  return {
    id: row.id,
    name: row.strategy_name,
    featureName: row.feature_name,
    title: row.title ?? null,
    parameters: parseJson<Record<string, string>>(row.parameters, {}),
    constraints: parseJson<Constraint[]>(row.constraints, []),
    variants: parseJson<StrategyVariant[]>(row.variants, []),
    sortOrder: toNumber(row.sort_order),
    disabled: toBoolean(row.disabled),
    segments: segmentIds,
  };
}

/**
 * `strategies` given: the full record (one feature read). Otherwise `counts` fills hasStrategies
 * and hasEnabledStrategies and the strategies are left out (searches). The project feature list
 * builds its items in SQL (feature-list.model.ts) from the same columns.
 */
export function toFeatureEnvironmentDto(
  row: FeatureEnvironmentRow,
  strategies: StrategyDto[] | undefined,
  counts?: StrategyCountRow,
): FeatureEnvironmentDto {
  const variants = parseJson<Variant[]>(row.variants, []);
  const total = strategies ? strategies.length : toNumber(counts?.total);
  const enabledCount = strategies
    ? strategies.filter((s) => !s.disabled).length
    : toNumber(counts?.enabled_count);
  return {
    name: row.environment_name,
    featureName: row.feature_name,
    environment: row.environment_name,
    type: row.type,
    enabled: toBoolean(row.enabled),
    sortOrder: toNumber(row.sort_order),
    variantCount: variants.length,
    variants,
    ...(strategies ? { strategies } : {}),
    hasStrategies: total > 0,
    hasEnabledStrategies: enabledCount > 0,
    lastSeenAt: toIso(row.last_seen_at),
  };
}

export function toTagDto(row: Pick<TagRow, 'tag_type' | 'tag_value'>): TagDto {
  return { type: row.tag_type, value: row.tag_value };
}

export function toDependencyDto(row: DependencyRow): DependencyDto {
  return {
    feature: row.parent,
    enabled: toBoolean(row.enabled),
    variants: parseJson<string[]>(row.variants, []),
  };
}

/** The stages entered, in stage order (which is also the order they were entered in). */
export function toLifecycleStages(rows: LifecycleRow[]): LifecycleStageDto[] {
  return [...rows]
    .sort((a, b) => stageOrder(a.stage) - stageOrder(b.stage))
    .map((row) => ({
      stage: row.stage,
      enteredStageAt: toIso(row.entered_stage_at) as string,
      ...(row.stage === 'completed'
        ? { status: row.status ?? 'kept', statusValue: row.status_value ?? null }
        : {}),
    }));
}

/** The current stage: the furthest stage entered. */
export function toCurrentLifecycle(rows: LifecycleRow[]): LifecycleDto | null {
  let current: LifecycleRow | undefined;
  for (const row of rows) {
    if (!current || stageOrder(row.stage) > stageOrder(current.stage)) current = row;
  }
  return current
    ? { stage: current.stage, enteredStageAt: toIso(current.entered_stage_at) as string }
    : null;
}

export interface FeatureParts {
  environments: FeatureEnvironmentDto[];
  tags: TagDto[];
  dependencies: DependencyDto[];
  children: string[];
  lifecycle: LifecycleDto | null;
}

export function toFeatureDto(row: FeatureRow, parts: FeatureParts): FeatureDto {
  return {
    name: row.name,
    type: row.type as FeatureType,
    description: row.description ?? null,
    project: row.project_id,
    enabled: parts.environments.some((env) => env.enabled),
    archived: row.archived_at !== null && row.archived_at !== undefined,
    archivedAt: toIso(row.archived_at),
    stale: toBoolean(row.stale),
    impressionData: toBoolean(row.impression_data),
    createdAt: toIso(row.created_at) as string,
    environments: parts.environments,
    tags: parts.tags,
    dependencies: parts.dependencies,
    children: parts.children,
    lifecycle: parts.lifecycle,
    // Filled in by FeaturePeopleService on the routes that show them.
    createdBy: null,
    collaborators: { users: [] },
    favorite: false,
  };
}
