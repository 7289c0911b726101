import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { FeatureDto, TagDto, DependencyDto } from './dto/feature.dto';
import type { LifecycleStageDto } from './dto/lifecycle.dto';
import type { StrategyDto } from './dto/strategy.dto';
import {
  DependencyRow,
  FeatureEnvironmentRow,
  FeatureRow,
  groupBy,
  LifecycleRow,
  segmentIdsByStrategy,
  StrategyCountRow,
  StrategyRow,
  StrategySegmentRow,
  TagRow,
  toCurrentLifecycle,
  toDependencyDto,
  toFeatureDto,
  toFeatureEnvironmentDto,
  toLifecycleStages,
  toStrategyDto,
  toTagDto,
} from './feature-mappers';

/** Which features to read: by name (archived ones included), or the active features of a project. */
export type FeatureSelection = { names: string[] } | { projectId: string };

export const FEATURE_COLUMNS =
  'name, project_id, type, description, stale, impression_data, archived_at, created_at';
export const STRATEGY_COLUMNS =
  'id, feature_name, environment_name, strategy_name, title, parameters, constraints, variants, sort_order, disabled';

/** A SQL list of feature names for `IN (...)`, and its parameters. */
function namesOf(selection: FeatureSelection): { list: string; params: unknown[] } {
  if ('names' in selection) {
    return { list: selection.names.map(() => '?').join(', '), params: selection.names };
  }
  return {
    list: 'SELECT name FROM features WHERE project_id = ? AND archived_at IS NULL',
    params: [selection.projectId],
  };
}

/**
 * The read side of features: whole feature records with their environments, strategies, tags,
 * dependencies and lifecycle, built with one query per table whatever the number of features,
 * environments or strategies. Every method takes an optional EntityManager so that a caller can
 * read inside its own transaction (one snapshot).
 */
@Injectable()
export class FeatureReadModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Full records of these features (by name), or null when it does not exist. */
  async feature(name: string, manager?: EntityManager): Promise<FeatureDto | null> {
    const [feature] = await this.features({ names: [name] }, { strategies: true }, manager);
    return feature ?? null;
  }

  /**
   * Feature records, by name. With `strategies: true` each environment carries its strategies;
   * otherwise (lists) only whether it has any.
   */
  async features(
    selection: FeatureSelection,
    options: { strategies: boolean },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FeatureDto[]> {
    if ('names' in selection && selection.names.length === 0) return [];
    const { list, params } = namesOf(selection);
    const q = <T>(sql: string, p: unknown[]): Promise<T[]> => manager.query(sql, p);

    const features = await q<FeatureRow>(
      `SELECT ${FEATURE_COLUMNS} FROM features WHERE name IN (${list}) ORDER BY name`,
      params,
    );
    if (features.length === 0) return [];
    const environments = await q<FeatureEnvironmentRow>(
      `SELECT fe.feature_name, fe.environment_name, fe.enabled, fe.variants, fe.last_seen_at,
              e.type, e.sort_order
         FROM feature_environments fe JOIN environments e ON e.name = fe.environment_name
        WHERE fe.feature_name IN (${list})
        ORDER BY fe.feature_name, e.sort_order, e.name`,
      params,
    );
    let strategiesByEnv: Map<string, StrategyDto[]> | undefined;
    let countsByEnv: Map<string, StrategyCountRow> | undefined;
    if (options.strategies) {
      const strategies = await q<StrategyRow>(
        `SELECT ${STRATEGY_COLUMNS} FROM feature_strategies
          WHERE feature_name IN (${list})
          ORDER BY feature_name, environment_name, sort_order, id`,
        params,
      );
      const segments = strategies.length
        ? await q<StrategySegmentRow>(
            `SELECT fss.strategy_id, fss.segment_id
               FROM feature_strategy_segments fss
               JOIN feature_strategies fs ON fs.id = fss.strategy_id
              WHERE fs.feature_name IN (${list})`,
            params,
          )
        : [];
      const segmentIds = segmentIdsByStrategy(segments);
      strategiesByEnv = new Map();
      for (const row of strategies) {
        const key = envKey(row.feature_name, row.environment_name);
        const dto = toStrategyDto(row, segmentIds.get(row.id));
        const group = strategiesByEnv.get(key);
        if (group) group.push(dto);
        else strategiesByEnv.set(key, [dto]);
      }
    } else {
      const counts = await q<StrategyCountRow>(
        `SELECT feature_name, environment_name, COUNT(*) AS total,
                SUM(CASE WHEN disabled = 0 THEN 1 ELSE 0 END) AS enabled_count
           FROM feature_strategies
          WHERE feature_name IN (${list})
          GROUP BY feature_name, environment_name`,
        params,
      );
      countsByEnv = new Map(
        counts.map((row) => [envKey(row.feature_name, row.environment_name), row]),
      );
    }
    const tags = await q<TagRow>(
      `SELECT feature_name, tag_type, tag_value FROM feature_tags
        WHERE feature_name IN (${list}) ORDER BY feature_name, tag_type, tag_value`,
      params,
    );
    const dependencies = await q<DependencyRow>(
      `SELECT child, parent, enabled, variants FROM feature_dependencies
        WHERE child IN (${list}) OR parent IN (${list}) ORDER BY child, parent`,
      [...params, ...params],
    );
    const lifecycles = await q<LifecycleRow>(
      `SELECT feature_name, stage, entered_stage_at FROM feature_lifecycles
        WHERE feature_name IN (${list})`,
      params,
    );

    const envsOf = groupBy(environments, (row) => row.feature_name);
    const tagsOf = groupBy(tags, (row) => row.feature_name);
    const parentsOf = groupBy(dependencies, (row) => row.child);
    const childrenOf = groupBy(dependencies, (row) => row.parent);
    const lifecycleOf = groupBy(lifecycles, (row) => row.feature_name);
    return features.map((row) =>
      toFeatureDto(row, {
        environments: (envsOf.get(row.name) ?? []).map((env) => {
          const key = envKey(env.feature_name, env.environment_name);
          return strategiesByEnv
            ? toFeatureEnvironmentDto(env, strategiesByEnv.get(key) ?? [])
            : toFeatureEnvironmentDto(env, undefined, countsByEnv?.get(key));
        }),
        tags: (tagsOf.get(row.name) ?? []).map(toTagDto),
        dependencies: (parentsOf.get(row.name) ?? []).map(toDependencyDto),
        children: (childrenOf.get(row.name) ?? []).map((dep) => dep.child),
        lifecycle: toCurrentLifecycle(lifecycleOf.get(row.name) ?? []),
      }),
    );
  }

  /** The strategies of a feature in one environment, by sortOrder then id. */
  async strategies(
    featureName: string,
    environment: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StrategyDto[]> {
    const rows: StrategyRow[] = await manager.query(
      `SELECT ${STRATEGY_COLUMNS} FROM feature_strategies
        WHERE feature_name = ? AND environment_name = ? ORDER BY sort_order, id`,
      [featureName, environment],
    );
    if (rows.length === 0) return [];
    const segments: StrategySegmentRow[] = await manager.query(
      `SELECT fss.strategy_id, fss.segment_id
         FROM feature_strategy_segments fss
         JOIN feature_strategies fs ON fs.id = fss.strategy_id
        WHERE fs.feature_name = ? AND fs.environment_name = ?`,
      [featureName, environment],
    );
    const segmentIds = segmentIdsByStrategy(segments);
    return rows.map((row) => toStrategyDto(row, segmentIds.get(row.id)));
  }

  /** One strategy of a feature in one environment, or null. */
  async strategy(
    featureName: string,
    environment: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<StrategyDto | null> {
    const [row]: StrategyRow[] = await manager.query(
      `SELECT ${STRATEGY_COLUMNS} FROM feature_strategies
        WHERE id = ? AND feature_name = ? AND environment_name = ?`,
      [id, featureName, environment],
    );
    if (!row) return null;
    const segments: StrategySegmentRow[] = await manager.query(
      `SELECT strategy_id, segment_id FROM feature_strategy_segments WHERE strategy_id = ?`,
      [id],
    );
    return toStrategyDto(row, segmentIdsByStrategy(segments).get(id));
  }

  async tags(
    featureName: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<TagDto[]> {
    const rows: TagRow[] = await manager.query(
      `SELECT feature_name, tag_type, tag_value FROM feature_tags
        WHERE feature_name = ? ORDER BY tag_type, tag_value`,
      [featureName],
    );
    return rows.map(toTagDto);
  }

  /** The parents of a feature, by name. */
  async dependencies(
    child: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DependencyDto[]> {
    const rows: DependencyRow[] = await manager.query(
      `SELECT child, parent, enabled, variants FROM feature_dependencies
        WHERE child = ? ORDER BY parent`,
      [child],
    );
    return rows.map(toDependencyDto);
  }

  /** The lifecycle stages a feature has entered, in order. */
  async lifecycle(
    featureName: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LifecycleStageDto[]> {
    const rows: LifecycleRow[] = await manager.query(
      `SELECT feature_name, stage, entered_stage_at, status, status_value
         FROM feature_lifecycles WHERE feature_name = ?`,
      [featureName],
    );
    return toLifecycleStages(rows);
  }
}

function envKey(featureName: string, environment: string): string {
  return `${featureName}\u0000${environment}`;
}
