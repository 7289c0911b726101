import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { parseJson, placeholders } from '../database/sql-values';
import {
  dialectOf,
  insertValues,
  jsonRecords,
  jsonStrings,
  upsertTail,
} from '../database/sql-dialect';
import { featureNamesSql, FeatureSelection, ExportScope } from './features.store';
import type { ReadSnapshot } from '../database/read-snapshot';
import type { DependencyRow } from './feature-mappers';

/** The `feature_dependencies` table: child → parent edges. */
@Injectable()
export class DependenciesStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Edges where a selected feature is the child or the parent, by child then parent. */
  async around(selection: FeatureSelection, tx: EntityManager): Promise<DependencyRow[]> {
    const { list, params } = featureNamesSql(selection);
    return tx.query(
      `SELECT child, parent, enabled, variants FROM feature_dependencies
        WHERE child IN (${list}) OR parent IN (${list}) ORDER BY child, parent`,
      [...params, ...params],
    );
  }

  /** The parents of a feature, by name. */
  async parentsOf(
    child: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<DependencyRow[]> {
    return tx.query(
      `SELECT child, parent, enabled, variants FROM feature_dependencies
        WHERE child = ? ORDER BY parent`,
      [child],
    );
  }

  /** Edges that leave `parent` or enter `child`: what decides whether child → parent may be added. */
  async touching(
    parent: string,
    child: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<Array<{ child: string; parent: string }>> {
    return tx.query(
      `SELECT child, parent FROM feature_dependencies WHERE child = ? OR parent = ?`,
      [parent, child],
    );
  }

  /**
   * touching() for many edges at once (the import's check, issue 14): the edges that leave one of
   * `parents` or enter one of `children`, each list one JSON parameter.
   */
  async touchingAny(
    tx: EntityManager,
    parents: string[],
    children: string[],
  ): Promise<Array<{ child: string; parent: string }>> {
    const names = jsonStrings(dialectOf(this.dataSource));
    return tx.query(
      `SELECT child, parent FROM feature_dependencies WHERE child IN (${names})
       UNION SELECT child, parent FROM feature_dependencies WHERE parent IN (${names})`,
      [JSON.stringify(parents), JSON.stringify(children)],
    );
  }

  /** The active features that depend on `parent`, by name. */
  async activeChildren(
    parent: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: Array<{ child: string }> = await tx.query(
      `SELECT d.child FROM feature_dependencies d JOIN features f ON f.name = d.child
        WHERE d.parent = ? AND f.archived_at IS NULL ORDER BY d.child`,
      [parent],
    );
    return rows.map((row) => row.child);
  }

  /** The active features that depend on any of `parents`, as edges, by parent then child. */
  async activeChildrenOfAny(parents: string[]): Promise<Array<{ parent: string; child: string }>> {
    if (parents.length === 0) return [];
    return this.dataSource.query(
      `SELECT d.parent, d.child FROM feature_dependencies d JOIN features f ON f.name = d.child
        WHERE d.parent IN (${placeholders(parents)}) AND f.archived_at IS NULL
        ORDER BY d.parent, d.child`,
      parents,
    );
  }

  /** Whether any feature of the project depends on another. */
  async anyInProject(projectId: string): Promise<boolean> {
    const rows = await this.dataSource.query(
      `SELECT d.child FROM feature_dependencies d JOIN features f ON f.name = d.child
        WHERE f.project_id = ? LIMIT 1`,
      [projectId],
    );
    return rows.length > 0;
  }

  /**
   * The features that may become parents of `child`, as Unleash offers them: the project's other
   * active features that have no parents themselves, by name.
   */
  async parentOptions(projectId: string, child: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT f.name FROM features f
        WHERE f.project_id = ? AND f.name <> ? AND f.archived_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM feature_dependencies d WHERE d.child = f.name)
        ORDER BY f.name`,
      [projectId, child],
    );
    return rows.map((row) => row.name);
  }

  /**
   * The variant names a parent can resolve to: those of its strategies and of its environments
   * (one statement), unique; unsorted.
   */
  async variantNamesOf(parent: string): Promise<string[]> {
    const rows: Array<{ variants: unknown }> = await this.dataSource.query(
      `SELECT variants FROM feature_strategies WHERE feature_name = ?
       UNION ALL SELECT variants FROM feature_environments WHERE feature_name = ?`,
      [parent, parent],
    );
    const names = rows.flatMap((row) =>
      parseJson<Array<{ name?: unknown }>>(row.variants, []).map((variant) => variant.name),
    );
    return [...new Set(names.filter((name): name is string => typeof name === 'string'))];
  }

  /** The export's read: the parents of the selected features, by child, then parent (bytes). */
  readForExport(reader: ReadSnapshot, scope: ExportScope): AsyncIterable<DependencyRow[]> {
    return reader.batches(
      `SELECT d.child, d.parent, d.enabled, d.variants FROM feature_dependencies d
        WHERE d.child IN (${scope.sql})
        ORDER BY d.child, d.parent`,
      scope.params,
    );
  }

  /** The import's write: adds these edges, or sets the condition of those that exist. */
  async upsertForImport(
    tx: EntityManager,
    rows: Array<{ child: string; parent: string; enabled: number; variants: string }>,
  ): Promise<void> {
    if (rows.length === 0) return;
    const dialect = dialectOf(this.dataSource);
    const head = 'INSERT INTO feature_dependencies (child, parent, enabled, variants)';
    const tail = upsertTail(dialect, ['child', 'parent'], ['enabled', 'variants']);
    if (dialect !== 'sqlite') {
      const values = rows.map((r) => [r.child, r.parent, r.enabled, r.variants]);
      await insertValues(tx, head, values, tail);
      return;
    }
    const records = jsonRecords(dialect, {
      child: 'name',
      parent: 'name',
      enabled: 'int',
      variants: 'text',
    });
    await tx.query(
      `${head} SELECT j.child, j.parent, j.enabled, j.variants FROM (${records}) j ${tail}`,
      [JSON.stringify(rows)],
    );
  }
}
