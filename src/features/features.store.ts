import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, forUpdate, jsonStrings } from '../database/sql-dialect';
import { placeholders, toNumber } from '../database/sql-values';
import type { FeatureRow } from './feature-mappers';

/** What the routes need to know of a feature named in a path. */
export interface FeatureRef {
  name: string;
  projectId: string;
  archived: boolean;
}

/** Which features to read: by name (archived ones included), or the active features of a project. */
export type FeatureSelection = { names: string[] } | { projectId: string };

/** Which features an export selects (rules.md §6). */
export type ExportSelection =
  | { rule: 'tag'; tag: string }
  | { rule: 'names'; names: string[] }
  | { rule: 'project'; projectId: string }
  | { rule: 'all' };

export const FEATURE_COLUMNS =
  'name, project_id, type, description, stale, impression_data, archived_at, created_at';

/**
 * A SQL list of feature names for `IN (...)` and its parameters: the feature stores filter their
 * own tables by it, so that one selection costs one statement per table.
 */
export function featureNamesSql(selection: FeatureSelection): { list: string; params: unknown[] } {
  if ('names' in selection) return { list: placeholders(selection.names), params: selection.names };
  return {
    list: 'SELECT name FROM features WHERE project_id = ? AND archived_at IS NULL',
    params: [selection.projectId],
  };
}

/** Features of a project, as a sub-select of names. */
export const FEATURES_OF_PROJECT_SQL = 'SELECT name FROM features WHERE project_id = ?';

/** The `features` table. */
@Injectable()
export class FeaturesStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  async findRef(
    name: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<FeatureRef | null> {
    const [row]: Array<{ name: string; project_id: string; archived_at: unknown }> = await tx.query(
      `SELECT name, project_id, archived_at FROM features WHERE name = ?`,
      [name],
    );
    if (!row) return null;
    return {
      name: row.name,
      projectId: row.project_id,
      archived: row.archived_at !== null && row.archived_at !== undefined,
    };
  }

  /**
   * These features, locked until the transaction ends (those that exist; by name, which is also
   * the order the locks are taken in, so two writes that lock the same features cannot deadlock
   * each other). A write that decides on a feature's state (archived or not, its dependencies)
   * takes this lock first and reads what decides after it.
   */
  async lockRefs(names: string[], tx: EntityManager): Promise<FeatureRef[]> {
    const rows: Array<{ name: string; project_id: string; archived_at: unknown }> = await tx.query(
      `SELECT name, project_id, archived_at FROM features WHERE name IN (${placeholders(names)})
        ORDER BY name${forUpdate(this.dialect)}`,
      names,
    );
    return rows.map((row) => ({
      name: row.name,
      projectId: row.project_id,
      archived: row.archived_at !== null && row.archived_at !== undefined,
    }));
  }

  /** Feature rows of the selection, by name. */
  async rows(selection: FeatureSelection, tx: EntityManager): Promise<FeatureRow[]> {
    const { list, params } = featureNamesSql(selection);
    return tx.query(
      `SELECT ${FEATURE_COLUMNS} FROM features WHERE name IN (${list}) ORDER BY name`,
      params,
    );
  }

  /** Whether the project has any feature, archived ones included. */
  async anyInProject(
    projectId: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = await tx.query(`SELECT name FROM features WHERE project_id = ? LIMIT 1`, [
      projectId,
    ]);
    return rows.length > 0;
  }

  /** Active features per project, for these projects (one statement). */
  async activeCounts(projectIds: string[]): Promise<Map<string, number>> {
    if (projectIds.length === 0) return new Map();
    const rows: Array<{ project_id: string; features: unknown }> = await this.dataSource.query(
      `SELECT project_id, COUNT(*) AS features FROM features
       WHERE archived_at IS NULL AND project_id IN (${placeholders(projectIds)})
       GROUP BY project_id`,
      projectIds,
    );
    return new Map(rows.map((row) => [row.project_id, toNumber(row.features)]));
  }

  /** The features an export selects, evaluated once (rules.md §6), unsorted. */
  async readForExport(tx: EntityManager, selection: ExportSelection): Promise<FeatureRow[]> {
    const condition = this.exportCondition(selection);
    return tx.query(
      `SELECT f.name, f.description, f.type, f.project_id, f.stale, f.impression_data, f.archived_at
         FROM features f WHERE ${condition.sql}`,
      condition.params,
    );
  }

  private exportCondition(selection: ExportSelection): { sql: string; params: unknown[] } {
    switch (selection.rule) {
      case 'tag':
        return {
          sql: 'f.name IN (SELECT ft.feature_name FROM feature_tags ft WHERE ft.tag_value = ?)',
          params: [selection.tag],
        };
      case 'names':
        return {
          sql: `f.name IN (${jsonStrings(this.dialect)})`,
          params: [JSON.stringify(selection.names)],
        };
      case 'project':
        return {
          sql: 'f.project_id = ? AND f.archived_at IS NULL',
          params: [selection.projectId],
        };
      case 'all':
        return { sql: 'f.archived_at IS NULL', params: [] };
    }
  }
}
