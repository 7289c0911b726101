import { Injectable } from '@nestjs/common';
import type { SqlReader } from '../database/read-snapshot';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { sdkTokensCountSql } from '../auth/auth.store';
import { dialectOf, forUpdate } from '../database/sql-dialect';
import { placeholders, sqlTimestamp, toBoolean, toNumber } from '../database/sql-values';
import {
  enabledTogglesCountSql,
  projectEnabledTogglesCountSql,
} from '../features/feature-environments.store';
import { linkedProjectsCountSql, PROJECT_ENVIRONMENT_NAMES_SQL } from '../projects/projects.store';
import type { EnvironmentDto, ProjectEnvironmentDto } from './dto/environment.dto';

interface EnvironmentRow {
  name: string;
  type: string;
  enabled: unknown;
  protected: unknown;
  sort_order: unknown;
  project_count: unknown;
  api_token_count: unknown;
  enabled_toggle_count: unknown;
}

/**
 * A join of `environments` (as `alias`) on the environment named in `nameColumn`, and the
 * ORDER BY term that sorts the joined rows as this store does (by sortOrder; the caller adds the
 * name), for other stores that read environments in that order.
 */
export function environmentOrderJoin(
  alias: string,
  nameColumn: string,
): { join: string; orderBy: string } {
  return {
    join: `JOIN environments ${alias} ON ${alias}.name = ${nameColumn}`,
    orderBy: `${alias}.sort_order`,
  };
}

/** An environment's type and place, for feature records. */
export interface EnvironmentOrder {
  name: string;
  type: string;
  sortOrder: number;
}

/**
 * One statement for any number of environments: each count is a correlated subquery, written by
 * the owner of the table it counts, and served by an index on environment_name.
 * enabledToggleCount counts enabled feature-environment rows, archived features included, as
 * Unleash does.
 */
const RECORDS_SQL = `
  SELECT e.name, e.type, e.enabled, e.protected, e.sort_order,
    ${linkedProjectsCountSql('e.name')} AS project_count,
    ${sdkTokensCountSql('e.name')} AS api_token_count,
    ${enabledTogglesCountSql('e.name')} AS enabled_toggle_count
  FROM environments e`;

/** The raw SQL of `environments` (simple reads and writes go through the service's repository). */
@Injectable()
export class EnvironmentsStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The records of these environments (all when omitted), by sortOrder then name. */
  async records(names?: string[], tx?: EntityManager): Promise<EnvironmentDto[]> {
    if (names && names.length === 0) return [];
    const where = names ? ` WHERE e.name IN (${placeholders(names)})` : '';
    const rows: EnvironmentRow[] = await (tx ?? this.dataSource).query(
      `${RECORDS_SQL}${where} ORDER BY e.sort_order, e.name`,
      names ?? [],
    );
    return rows.map((row) => ({
      name: row.name,
      type: row.type,
      enabled: toBoolean(row.enabled),
      protected: toBoolean(row.protected),
      sortOrder: toNumber(row.sort_order),
      projectCount: toNumber(row.project_count),
      apiTokenCount: toNumber(row.api_token_count),
      enabledToggleCount: toNumber(row.enabled_toggle_count),
    }));
  }

  /**
   * The environments linked to a project, with the number of its features enabled in each, by
   * sortOrder then name (one statement).
   */
  async ofProject(projectId: string): Promise<ProjectEnvironmentDto[]> {
    const rows: Array<{
      name: string;
      type: string;
      enabled: unknown;
      protected: unknown;
      sort_order: unknown;
      enabled_toggle_count: unknown;
    }> = await this.dataSource.query(
      `SELECT e.name, e.type, e.enabled, e.protected, e.sort_order,
              ${projectEnabledTogglesCountSql('e.name')} AS enabled_toggle_count
         FROM environments e WHERE e.name IN (${PROJECT_ENVIRONMENT_NAMES_SQL})
        ORDER BY e.sort_order, e.name`,
      [projectId, projectId],
    );
    return rows.map((row) => ({
      name: row.name,
      type: row.type,
      enabled: toBoolean(row.enabled),
      protected: toBoolean(row.protected),
      sortOrder: toNumber(row.sort_order),
      projectEnabledToggleCount: toNumber(row.enabled_toggle_count),
    }));
  }

  /** The names among these that exist (one statement). */
  async existing(names: string[], tx?: SqlReader): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows: Array<{ name: string }> = await (tx ?? this.dataSource).query(
      `SELECT name FROM environments WHERE name IN (${placeholders(names)})`,
      names,
    );
    return new Set(rows.map((row) => row.name));
  }

  async exists(name: string, tx?: SqlReader): Promise<boolean> {
    return (await this.existing([name], tx)).has(name);
  }

  /** An environment's type, or null when there is no such environment. */
  async typeOf(name: string, tx?: EntityManager): Promise<string | null> {
    const [row]: Array<{ type: string }> = await (tx ?? this.dataSource).query(
      'SELECT type FROM environments WHERE name = ?',
      [name],
    );
    return row?.type ?? null;
  }

  /** Every environment's type and sortOrder, by sortOrder then name. */
  async orders(tx?: EntityManager): Promise<EnvironmentOrder[]> {
    const rows: Array<{ name: string; type: string; sort_order: unknown }> = await (
      tx ?? this.dataSource
    ).query(`SELECT name, type, sort_order FROM environments ORDER BY sort_order, name`);
    return rows.map((row) => ({
      name: row.name,
      type: row.type,
      sortOrder: toNumber(row.sort_order),
    }));
  }

  /** The names of the enabled environments. */
  async enabledNames(tx?: EntityManager): Promise<string[]> {
    const rows: Array<{ name: string }> = await (tx ?? this.dataSource).query(
      `SELECT name FROM environments WHERE enabled = 1`,
    );
    return rows.map((row) => row.name);
  }

  /** The highest sortOrder in use, or null when there is no environment. */
  async highestSortOrder(): Promise<number | null> {
    const [row] = await this.dataSource.query(
      `SELECT MAX(sort_order) AS highest FROM environments`,
    );
    return row?.highest === null || row?.highest === undefined ? null : toNumber(row.highest);
  }

  /**
   * Locks the environment until the transaction ends and returns its sortOrder, or null when it
   * does not exist. A clone locks its source: clones of one source then run one at a time (two
   * at once deadlocked copying its role permissions), and a delete of the source waits for the
   * clone or makes it a 404.
   */
  async lockForUpdate(name: string, tx: EntityManager): Promise<{ sortOrder: number } | null> {
    const [row]: Array<{ sort_order: unknown }> = await tx.query(
      `SELECT sort_order FROM environments WHERE name = ?${forUpdate(dialectOf(this.dataSource))}`,
      [name],
    );
    return row ? { sortOrder: toNumber(row.sort_order) } : null;
  }

  /** Inserts the clone's new environment (enabled, not protected). */
  async insertClone(
    tx: EntityManager,
    name: string,
    type: string,
    sortOrder: number,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO environments (name, type, enabled, protected, sort_order, created_at) VALUES (?, ?, 1, 0, ?, ?)`,
      [name, type, sortOrder, sqlTimestamp(new Date())],
    );
  }
}
