import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import {
  Dialect,
  dialectOf,
  forShare,
  forUpdate,
  insertValues,
  jsonRecords,
  jsonStrings,
  sqlClaimNames,
  sqlJsonBoolean,
  sqlJsonObject,
  sqlJsonString,
  upsertTail,
} from '../database/sql-dialect';
import type { ReadSnapshot } from '../database/read-snapshot';
import { placeholders, sqlTimestamp, toBoolean, toNumber } from '../database/sql-values';
import { Feature } from './feature.entity';
import type { FeatureRow } from './feature-mappers';

/** What the routes need to know of a feature named in a path. */
export interface FeatureRef {
  name: string;
  projectId: string;
  archived: boolean;
}

/** A feature named in a body, with the fields the import writes as they are stored now. */
export interface StoredFeatureRef extends FeatureRef {
  stored: ImportFeatureRow;
}

/** A feature as the import writes it (null fields left out, booleans as 0/1). */
export interface ImportFeatureRow {
  name: string;
  type: string;
  description?: string;
  stale: number;
  impression_data: number;
}

/** Which features to read: by name (archived ones included), or the active features of a project. */
export type FeatureSelection = { names: string[] } | { projectId: string };

/** Which features an export selects (rules.md §6). */
export type ExportSelection =
  | { rule: 'tag'; tag: string }
  | { rule: 'names'; names: string[] }
  | { rule: 'project'; projectId: string }
  | { rule: 'all' };

/** The export's selection as a sub-select of feature names, with its parameters. */
export interface ExportScope {
  /** The selected names as a sub-select, for the other tables' `IN (...)`. */
  sql: string;
  params: unknown[];
  /**
   * The same selection as a condition on `features f` itself, for the rules that are one (a
   * project, all): the features' own read then filters the table in index order rather than
   * joining it to itself, which MariaDB followed with a sort (docs/benchmarks.md).
   */
  onFeatures?: { sql: string; params: unknown[] };
}

/**
 * One record of an export list as JSON text written by the database, in the key order of its DTO
 * (rules.md §6). The export checks it with canonicalScan before it splices it (issue 15).
 */
export type ExportItem = string;

/** An item of a per-feature export list, with the feature it belongs to (for the kept runs). */
export type ExportFeatureItem = [item: ExportItem, feature: string];

/**
 * A feature of an export: its item, its name, its list stamp and the list generation (the same in
 * every row), from which the export computes the signatures of its kept runs.
 */
export type ExportFeatureRow = [
  item: ExportItem,
  name: string,
  stamp: unknown,
  generation: unknown,
];

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

/**
 * The list generation (feature_list_generation, one row) as a sub-select: kept texts are current
 * only while it and the feature's list_stamp match what they were written from. A missing row
 * reads as NULL, which matches nothing, so that every text is written anew rather than trusted.
 */
export const LIST_GENERATION_SQL = `(SELECT generation FROM feature_list_generation WHERE id = 1)`;

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

  /**
   * lockRefs, after claiming the rows: write_claim is flipped on each, so that two transactions
   * deciding on the same feature (a dependency added, the reverse edge, the parent archived)
   * also conflict when they run on two Galera nodes, where a lock holds only on its own node and
   * certification compares what was written (docs/decisions-galera.md). Name order, as lockRefs.
   */
  async claimRefs(names: string[], tx: EntityManager): Promise<FeatureRef[]> {
    await tx.update(Feature, { name: In(names) }, { writeClaim: () => '1 - write_claim' });
    return this.lockRefs(names, tx);
  }

  /**
   * The import's form of claimRefs, for the features its dependency edges join (children and
   * parents, issue 14): write_claim flipped on each, with the names as one JSON parameter however
   * many there are. Sent first in the import's transaction, so that what the import then reads
   * of these features and their edges is read after the claim, as the dependency routes read it
   * (docs/decisions-concurrency.md). A name that does not exist claims nothing; on InnoDB its gap
   * in the primary key is locked, so a feature created under that name meanwhile waits.
   */
  async claimForImport(tx: EntityManager, names: string[]): Promise<void> {
    if (names.length === 0) return;
    await tx.query(sqlClaimNames(this.dialect, 'features'), [JSON.stringify(names)]);
  }

  /**
   * How many of these features (names as one JSON parameter) are archived now, or in another
   * project than `projectId`, read past the transaction's snapshot (a locking read sees the
   * latest commit). The import asks after writing the features, which holds their rows: a
   * feature archived or moved since the import's analysis read it makes the analysis stale.
   */
  async countArchivedOrElsewhere(
    tx: EntityManager,
    projectId: string,
    names: string[],
  ): Promise<number> {
    if (names.length === 0) return 0;
    const [row]: Array<{ n: unknown }> = await tx.query(
      `SELECT COUNT(*) AS n FROM features f
        WHERE f.name IN (${jsonStrings(this.dialect)})
          AND (f.archived_at IS NOT NULL OR f.project_id <> ?)${forShare(this.dialect)}`,
      [JSON.stringify(names), projectId],
    );
    return toNumber(row?.n);
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

  /**
   * The features an export selects (rules.md §6), in byte order of their names, read as they are
   * asked for (issue 15: the export does not hold them), each with its name, its list stamp and
   * the list generation, which tell the export whether its kept runs are current
   * (docs/decisions-export.md, "Kept runs").
   */
  readForExport(reader: ReadSnapshot, scope: ExportScope): AsyncIterable<ExportFeatureRow[]> {
    const item = sqlJsonObject(this.dialect, [
      ['name', sqlJsonString('f.name')],
      ['description', sqlJsonString('f.description')],
      ['type', sqlJsonString('f.type')],
      ['project', sqlJsonString('f.project_id')],
      ['stale', sqlJsonBoolean('f.stale = 1')],
      ['impressionData', sqlJsonBoolean('f.impression_data = 1')],
      ['archived', sqlJsonBoolean('f.archived_at IS NOT NULL')],
    ]);
    const where = scope.onFeatures ?? { sql: `f.name IN (${scope.sql})`, params: scope.params };
    return reader.tuples<ExportFeatureRow>(
      `SELECT ${item} AS item, f.name, f.list_stamp, ${LIST_GENERATION_SQL} AS generation
         FROM features f WHERE ${where.sql} ORDER BY f.name`,
      where.params,
    );
  }

  /**
   * The export's selection as a sub-select of feature names, which every read of the export
   * repeats (the condition is evaluated in each statement's snapshot read; there is deliberately
   * no INSERT ... SELECT FROM features, a locking read on InnoDB, see decisions-export.md). The
   * names rule reads the client's list from `namesTable`, filled once from one JSON parameter,
   * so that no statement parses the list again or plans around a JSON_TABLE.
   */
  exportScope(selection: ExportSelection, namesTable: string): ExportScope {
    switch (selection.rule) {
      case 'tag':
        return {
          sql: 'SELECT ft.feature_name FROM feature_tags ft WHERE ft.tag_value = ?',
          params: [selection.tag],
        };
      case 'names':
        return { sql: `SELECT sel.name FROM ${namesTable} sel`, params: [] };
      case 'project':
        return {
          sql: 'SELECT fp.name FROM features fp WHERE fp.project_id = ? AND fp.archived_at IS NULL',
          params: [selection.projectId],
          onFeatures: {
            sql: 'f.project_id = ? AND f.archived_at IS NULL',
            params: [selection.projectId],
          },
        };
      case 'all':
        return {
          sql: 'SELECT fa.name FROM features fa WHERE fa.archived_at IS NULL',
          params: [],
          onFeatures: { sql: 'f.archived_at IS NULL', params: [] },
        };
    }
  }

  /**
   * How many rows the server reckons `features` and `feature_environments` hold: InnoDB's running
   * count as information_schema reports it, approximate and without reading either table. Only
   * the export's choice of plan on MariaDB uses it (ExportService, docs/decisions-export.md).
   */
  async estimatedRows(
    reader: ReadSnapshot,
  ): Promise<{ features: number; featureEnvironments: number }> {
    const rows: Array<{ name: string; estimate: unknown }> = await reader.query(
      `SELECT TABLE_NAME AS name, TABLE_ROWS AS estimate FROM information_schema.TABLES
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('features', 'feature_environments')`,
    );
    const of = (table: string) => toNumber(rows.find((row) => row.name === table)?.estimate ?? 0);
    return { features: of('features'), featureEnvironments: of('feature_environments') };
  }

  /** Active features of a project per type (one statement). */
  async typeCounts(projectId: string): Promise<Array<{ type: string; count: number }>> {
    const rows: Array<{ type: string; features: unknown }> = await this.dataSource.query(
      `SELECT type, COUNT(*) AS features FROM features
        WHERE project_id = ? AND archived_at IS NULL GROUP BY type ORDER BY type`,
      [projectId],
    );
    return rows.map((row) => ({ type: row.type, count: toNumber(row.features) }));
  }

  /**
   * A project's feature figures in one statement: active and stale ones, and how many were
   * created and archived in the 30 days before `now` and in the 30 days before those.
   */
  async projectFigures(projectId: string, now: Date): Promise<ProjectFeatureFigures> {
    const day = 24 * 60 * 60 * 1000;
    const ago30 = sqlTimestamp(new Date(now.getTime() - 30 * day));
    const ago60 = sqlTimestamp(new Date(now.getTime() - 60 * day));
    const [row]: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT SUM(CASE WHEN archived_at IS NULL THEN 1 ELSE 0 END) AS active,
              SUM(CASE WHEN archived_at IS NULL AND stale = 1 THEN 1 ELSE 0 END) AS stale,
              SUM(CASE WHEN created_at >= ? THEN 1 ELSE 0 END) AS created_current,
              SUM(CASE WHEN created_at >= ? AND created_at < ? THEN 1 ELSE 0 END) AS created_past,
              SUM(CASE WHEN archived_at >= ? THEN 1 ELSE 0 END) AS archived_current,
              SUM(CASE WHEN archived_at >= ? AND archived_at < ? THEN 1 ELSE 0 END) AS archived_past
         FROM features WHERE project_id = ?`,
      [ago30, ago60, ago30, ago30, ago60, ago30, projectId],
    );
    return {
      active: toNumber(row?.active),
      stale: toNumber(row?.stale),
      createdCurrentWindow: toNumber(row?.created_current),
      createdPastWindow: toNumber(row?.created_past),
      archivedCurrentWindow: toNumber(row?.archived_current),
      archivedPastWindow: toNumber(row?.archived_past),
    };
  }

  /**
   * The features of these names (archived ones included), with the fields the import would write
   * (so that it can leave unchanged ones alone), one statement whatever their number.
   */
  async refsByNames(tx: EntityManager, names: string[]): Promise<StoredFeatureRef[]> {
    if (names.length === 0) return [];
    const rows: Array<{
      name: string;
      project_id: string;
      archived_at: unknown;
      type: string;
      description: string | null;
      stale: unknown;
      impression_data: unknown;
    }> = await tx.query(
      `SELECT f.name, f.project_id, f.archived_at, f.type, f.description, f.stale,
              f.impression_data
         FROM (${jsonRecords(this.dialect, { name: 'name' })}) j JOIN features f ON f.name = j.name`,
      [JSON.stringify(names.map((name) => ({ name })))],
    );
    return rows.map((row) => ({
      name: row.name,
      projectId: row.project_id,
      archived: row.archived_at !== null && row.archived_at !== undefined,
      stored: {
        name: row.name,
        type: row.type,
        description: row.description ?? undefined,
        stale: toBoolean(row.stale) ? 1 : 0,
        impression_data: toBoolean(row.impression_data) ? 1 : 0,
      },
    }));
  }

  /**
   * The import's write (rules.md §6, issue 14): creates the features that do not exist in the
   * project and overwrites description, type, stale and impressionData of those that do, in one
   * statement. The caller has checked that none of them lives in another project.
   */
  async upsertForImport(
    tx: EntityManager,
    projectId: string,
    rows: ImportFeatureRow[],
    at: string,
  ): Promise<void> {
    if (rows.length === 0) return;
    const head =
      'INSERT INTO features (name, project_id, type, description, stale, impression_data, created_at)';
    const tail = upsertTail(
      this.dialect,
      ['name'],
      ['type', 'description', 'stale', 'impression_data'],
    );
    if (this.dialect !== 'sqlite') {
      const values = rows.map((r) => [
        r.name,
        projectId,
        r.type,
        r.description ?? null,
        r.stale,
        r.impression_data,
        at,
      ]);
      await insertValues(tx, head, values, tail);
      return;
    }
    const records = jsonRecords(this.dialect, {
      name: 'name',
      type: 'name',
      description: 'text',
      stale: 'int',
      impression_data: 'int',
    });
    await tx.query(
      `${head} SELECT j.name, ?, j.type, j.description, j.stale, j.impression_data, ?
         FROM (${records}) j ${tail}`,
      [projectId, at, JSON.stringify(rows)],
    );
  }
}

export interface ProjectFeatureFigures {
  active: number;
  stale: number;
  createdCurrentWindow: number;
  createdPastWindow: number;
  archivedCurrentWindow: number;
  archivedPastWindow: number;
}
