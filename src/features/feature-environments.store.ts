import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ReadSnapshot } from '../database/read-snapshot';
import {
  Dialect,
  dialectOf,
  insertValues,
  jsonRecords,
  sqlJsonBoolean,
  sqlJsonObject,
  sqlJsonString,
  sqlStoredJson,
  upsertTail,
  withoutSemiJoins,
} from '../database/sql-dialect';
import { parseJson, placeholders, toBoolean } from '../database/sql-values';
import {
  ExportFeatureItem,
  ExportScope,
  FEATURES_OF_PROJECT_SQL,
  featureNamesSql,
  FeatureSelection,
} from './features.store';
import { FeatureEnvironment } from './feature-environment.entity';
import type { FeatureEnvironmentRow } from './feature-mappers';
import type { Variant } from './variant';

/**
 * Enabled feature-environment rows of an environment, as a correlated count for the environment
 * list; `envColumn` is the outer query's environment name column.
 */
export function enabledTogglesCountSql(envColumn: string): string {
  return `(SELECT COUNT(*) FROM feature_environments fe
      WHERE fe.environment_name = ${envColumn} AND fe.enabled = 1)`;
}

/**
 * The project's features (not archived) enabled in the environment in `envColumn`, as a
 * correlated count taking the project id as its parameter.
 */
export function projectEnabledTogglesCountSql(envColumn: string): string {
  return `(SELECT COUNT(*) FROM feature_environments fe JOIN features f ON f.name = fe.feature_name
      WHERE fe.environment_name = ${envColumn} AND fe.enabled = 1
        AND f.project_id = ? AND f.archived_at IS NULL)`;
}

/** The `feature_environments` table: each feature's switch and variants per environment. */
@Injectable()
export class FeatureEnvironmentsStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /**
   * Claims the feature's row in the environment until the transaction ends: the row that stands
   * for the feature's strategy list there, so that strategy writes to one list run one at a time
   * (a new strategy's sortOrder is read from the others). The claim is a write (write_claim
   * flipped), not only a lock: on Galera a lock is local to its node, while two transactions
   * that write the same row conflict at certification whichever nodes they ran on, and the
   * loser is retried (docs/decisions-galera.md). False when there is no row.
   */
  async lock(featureName: string, environment: string, tx: EntityManager): Promise<boolean> {
    const result = await tx.update(
      FeatureEnvironment,
      { featureName, environment },
      { writeClaim: () => '1 - write_claim' },
    );
    return (result.affected ?? 0) > 0;
  }

  async find(
    featureName: string,
    environment: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<{ enabled: boolean; variants: Variant[] } | null> {
    const [row]: Array<{ enabled: unknown; variants: unknown }> = await tx.query(
      `SELECT enabled, variants FROM feature_environments
        WHERE feature_name = ? AND environment_name = ?`,
      [featureName, environment],
    );
    if (!row) return null;
    return { enabled: toBoolean(row.enabled), variants: parseJson<Variant[]>(row.variants, []) };
  }

  /** Rows of the selected features (without the environment's type and order), by feature. */
  async rows(
    selection: FeatureSelection,
    tx: EntityManager,
  ): Promise<Omit<FeatureEnvironmentRow, 'type' | 'sort_order'>[]> {
    const { list, params } = featureNamesSql(selection);
    return tx.query(
      `SELECT feature_name, environment_name, enabled, variants, last_seen_at
         FROM feature_environments WHERE feature_name IN (${list})
        ORDER BY feature_name`,
      params,
    );
  }

  /** A disabled row in each of these environments for a new feature. */
  async addFeature(tx: EntityManager, featureName: string, environments: string[]): Promise<void> {
    if (environments.length === 0) return;
    await tx.query(
      `INSERT INTO feature_environments (feature_name, environment_name, enabled, variants)
       VALUES ${environments.map(() => `(?, ?, 0, '[]')`).join(', ')}`,
      environments.flatMap((environment) => [featureName, environment]),
    );
  }

  /**
   * A disabled row in the environment for each feature of the project (archived ones included)
   * that has none: one INSERT ... SELECT.
   */
  async addProject(tx: EntityManager, projectId: string, environment: string): Promise<void> {
    await tx.query(
      `INSERT INTO feature_environments (feature_name, environment_name, enabled, variants)
       SELECT f.name, ?, 0, '[]' FROM features f
       WHERE f.project_id = ?
         AND NOT EXISTS (SELECT 1 FROM feature_environments fe
                         WHERE fe.feature_name = f.name AND fe.environment_name = ?)`,
      [environment, projectId, environment],
    );
  }

  async removeProject(tx: EntityManager, projectId: string, environment: string): Promise<void> {
    await tx.query(
      `DELETE FROM feature_environments
        WHERE environment_name = ? AND feature_name IN (${FEATURES_OF_PROJECT_SQL})`,
      [environment, projectId],
    );
  }

  /**
   * The clone's copy (rules.md §4): for each feature of the projects (archived ones too, so that a
   * revived feature keeps its configuration), its row in `source`, or a disabled row where the
   * source has none, as linking a project does. One statement: the outer join finds the missing
   * rows in the same pass as the copied ones, where a second statement would look each feature
   * up again in the target.
   */
  async copyEnvironment(
    tx: EntityManager,
    source: string,
    target: string,
    projectIds: string[],
  ): Promise<void> {
    await tx.query(
      `INSERT INTO feature_environments (feature_name, environment_name, enabled, variants)
       SELECT f.name, ?, COALESCE(fe.enabled, 0), COALESCE(fe.variants, '[]')
       FROM features f
       LEFT JOIN feature_environments fe ON fe.feature_name = f.name AND fe.environment_name = ?
       WHERE f.project_id IN (${placeholders(projectIds)})`,
      [target, source, ...projectIds],
    );
  }

  /**
   * The export's read: the selected features' rows in one environment, by feature (bytes), each
   * as the text of ExportFeatureEnvironmentDto with the stored variants spliced in, and its
   * feature. `scan` walks the table in key order instead of looking up each selected feature
   * (withoutSemiJoins).
   */
  readForExport(
    reader: ReadSnapshot,
    scope: ExportScope,
    environment: string,
    scan = false,
  ): AsyncIterable<ExportFeatureItem[]> {
    const dialect = dialectOf(this.dataSource);
    const item = sqlJsonObject(dialect, [
      ['name', sqlJsonString('fe.feature_name')],
      ['featureName', sqlJsonString('fe.feature_name')],
      ['environment', sqlJsonString('fe.environment_name')],
      ['enabled', sqlJsonBoolean('fe.enabled = 1')],
      ['variants', sqlStoredJson('fe.variants', '[]')],
    ]);
    const select = `SELECT ${item} AS item, fe.feature_name FROM feature_environments fe
        WHERE fe.environment_name = ? AND fe.feature_name IN (${scope.sql})
        ORDER BY fe.feature_name`;
    return reader.tuples(scan ? withoutSemiJoins(dialect, select) : select, [
      environment,
      ...scope.params,
    ]);
  }

  /** A disabled row in each of these environments for each of the import's new features. */
  async addFeaturesForImport(
    tx: EntityManager,
    names: string[],
    environments: string[],
  ): Promise<void> {
    if (names.length === 0 || environments.length === 0) return;
    const dialect = dialectOf(this.dataSource);
    await tx.query(
      `INSERT INTO feature_environments (feature_name, environment_name, enabled, variants)
       SELECT f.name, e.name, 0, '[]'
         FROM (${jsonRecords(dialect, { name: 'name' })}) f
        CROSS JOIN (${jsonRecords(dialect, { name: 'name' })}) e`,
      [
        JSON.stringify(names.map((name) => ({ name }))),
        JSON.stringify(environments.map((name) => ({ name }))),
      ],
    );
  }

  /** The import's switch and variants of these features in one environment (one statement). */
  async upsertForImport(
    tx: EntityManager,
    environment: string,
    rows: Array<{ feature: string; enabled: number; variants: string }>,
  ): Promise<void> {
    if (rows.length === 0) return;
    const dialect = dialectOf(this.dataSource);
    const head =
      'INSERT INTO feature_environments (feature_name, environment_name, enabled, variants)';
    const tail = upsertTail(dialect, ['feature_name', 'environment_name'], ['enabled', 'variants']);
    if (dialect !== 'sqlite') {
      const values = rows.map((r) => [r.feature, environment, r.enabled, r.variants]);
      await insertValues(tx, head, values, tail);
      return;
    }
    const records = jsonRecords(dialect, { feature: 'name', enabled: 'int', variants: 'text' });
    await tx.query(
      `${head} SELECT j.feature, ?, j.enabled, j.variants FROM (${records}) j ${tail}`,
      [environment, JSON.stringify(rows)],
    );
  }
}
