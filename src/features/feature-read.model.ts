import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { EnvironmentsStore } from '../environments/environments.store';
import { DependenciesStore } from './dependencies.store';
import type { DependencyDto, FeatureDto, TagDto } from './dto/feature.dto';
import type { LifecycleStageDto } from './dto/lifecycle.dto';
import type { StrategyDto } from './dto/strategy.dto';
import { FeatureEnvironmentsStore } from './feature-environments.store';
import {
  groupBy,
  toCurrentLifecycle,
  toDependencyDto,
  toFeatureDto,
  toFeatureEnvironmentDto,
  toLifecycleStages,
  toTagDto,
} from './feature-mappers';
import { FeatureTagsStore } from './feature-tags.store';
import { FeatureSelection, FeaturesStore } from './features.store';
import { LifecycleStore } from './lifecycle.store';
import { StrategiesStore } from './strategies.store';

export type { FeatureSelection } from './features.store';

/**
 * The read side of features: whole feature records with their environments, strategies, tags,
 * dependencies and lifecycle, built with one query per table (through each table's store)
 * whatever the number of features, environments or strategies. Every method takes an optional
 * EntityManager so that a caller can read inside its own transaction (one snapshot).
 */
@Injectable()
export class FeatureReadModel {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly featureRows: FeaturesStore,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
    private readonly strategyRows: StrategiesStore,
    private readonly tagRows: FeatureTagsStore,
    private readonly dependencyRows: DependenciesStore,
    private readonly lifecycleRows: LifecycleStore,
    private readonly environments: EnvironmentsStore,
  ) {}

  /** The full record of a feature (by name), or null when it does not exist. */
  async feature(name: string, manager?: EntityManager): Promise<FeatureDto | null> {
    const [feature] = await this.features({ names: [name] }, { strategies: true }, manager);
    return feature ?? null;
  }

  /**
   * Feature records, by name. With `strategies: true` each environment carries its strategies;
   * otherwise (searches) only whether it has any.
   */
  async features(
    selection: FeatureSelection,
    options: { strategies: boolean },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FeatureDto[]> {
    if ('names' in selection && selection.names.length === 0) return [];
    // The reads do not depend on each other. Outside a transaction each may take its own pooled
    // connection, so on MySQL/MariaDB a feature page waits for the slowest read instead of the sum
    // of their round trips (they were never one snapshot there: each autocommits). Inside a
    // transaction they queue on its connection, in its snapshot, as before.
    const [
      features,
      environmentRows,
      environmentOrders,
      strategies,
      counts,
      tags,
      dependencies,
      lifecycles,
    ] = await Promise.all([
      this.featureRows.rows(selection, manager),
      this.featureEnvironments.rows(selection, manager),
      this.environments.orders(manager),
      options.strategies ? this.strategyRows.ofFeatures(selection, manager) : undefined,
      options.strategies ? undefined : this.strategyRows.countsOf(selection, manager),
      this.tagRows.ofFeatures(selection, manager),
      this.dependencyRows.around(selection, manager),
      this.lifecycleRows.ofFeatures(selection, manager),
    ]);
    const orders = new Map(environmentOrders.map((env, rank) => [env.name, { env, rank }]));
    let strategiesByEnv: Map<string, StrategyDto[]> | undefined;
    if (strategies) {
      strategiesByEnv = new Map();
      for (const { environment, strategy } of strategies) {
        const key = envKey(strategy.featureName, environment);
        const group = strategiesByEnv.get(key);
        if (group) group.push(strategy);
        else strategiesByEnv.set(key, [strategy]);
      }
    }
    const countsByEnv =
      counts && new Map(counts.map((row) => [envKey(row.feature_name, row.environment_name), row]));

    const envsOf = groupBy(environmentRows, (row) => row.feature_name);
    const tagsOf = groupBy(tags, (row) => row.feature_name);
    const parentsOf = groupBy(dependencies, (row) => row.child);
    const childrenOf = groupBy(dependencies, (row) => row.parent);
    const lifecycleOf = groupBy(lifecycles, (row) => row.feature_name);
    const rank = (name: string) => orders.get(name)?.rank ?? Number.MAX_SAFE_INTEGER;
    return features.map((row) =>
      toFeatureDto(row, {
        environments: (envsOf.get(row.name) ?? [])
          .sort((a, b) => rank(a.environment_name) - rank(b.environment_name))
          .map((feRow) => {
            const env = orders.get(feRow.environment_name)?.env;
            const withEnv = { ...feRow, type: env?.type ?? '', sort_order: env?.sortOrder ?? 0 };
            const key = envKey(feRow.feature_name, feRow.environment_name);
            return strategiesByEnv
              ? toFeatureEnvironmentDto(withEnv, strategiesByEnv.get(key) ?? [])
              : toFeatureEnvironmentDto(withEnv, undefined, countsByEnv?.get(key));
          }),
        tags: (tagsOf.get(row.name) ?? []).map(toTagDto),
        dependencies: (parentsOf.get(row.name) ?? []).map(toDependencyDto),
        children: (childrenOf.get(row.name) ?? []).map((dep) => dep.child),
        lifecycle: toCurrentLifecycle(lifecycleOf.get(row.name) ?? []),
      }),
    );
  }

  /** The strategies of a feature in one environment, by sortOrder then id. */
  strategies(
    featureName: string,
    environment: string,
    manager?: EntityManager,
  ): Promise<StrategyDto[]> {
    return this.strategyRows.ofFeatureEnvironment(featureName, environment, manager);
  }

  /** One strategy of a feature in one environment, or null. */
  strategy(
    featureName: string,
    environment: string,
    id: string,
    manager?: EntityManager,
  ): Promise<StrategyDto | null> {
    return this.strategyRows.one(featureName, environment, id, manager);
  }

  async tags(featureName: string, manager?: EntityManager): Promise<TagDto[]> {
    return (await this.tagRows.ofFeature(featureName, manager)).map(toTagDto);
  }

  /** The parents of a feature, by name. */
  async dependencies(child: string, manager?: EntityManager): Promise<DependencyDto[]> {
    return (await this.dependencyRows.parentsOf(child, manager)).map(toDependencyDto);
  }

  /** The lifecycle stages a feature has entered, in order. */
  async lifecycle(featureName: string, manager?: EntityManager): Promise<LifecycleStageDto[]> {
    return toLifecycleStages(await this.lifecycleRows.ofFeature(featureName, manager));
  }
}

function envKey(featureName: string, environment: string): string {
  return `${featureName}\u0000${environment}`;
}
