import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { parseJson } from '../database/sql-values';

/**
 * SDK tokens (client, frontend) scoped to an environment, as a correlated count; admin and service
 * tokens have no environment. `envColumn` is the outer query's environment name column.
 */
export function sdkTokensCountSql(envColumn: string): string {
  return `(SELECT COUNT(*) FROM api_tokens t
      WHERE t.environment_name = ${envColumn} AND t.type IN ('client', 'frontend'))`;
}

/** The raw SQL of `roles`, `role_permissions` and `api_tokens`. */
@Injectable()
export class AuthStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The clone's copy of the permissions scoped to `source` (rules.md §4). Tokens bound to those
   * roles gain rights, so the auth version moves with it (call AuthVersion.changed() after the
   * commit).
   */
  async copyEnvironmentPermissions(
    tx: EntityManager,
    source: string,
    target: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO role_permissions (role_id, permission, environment_name)
       SELECT role_id, permission, ? FROM role_permissions WHERE environment_name = ?`,
      [target, source],
    );
    await this.bumpVersion(tx);
  }

  /** Marks, in the transaction of a change to tokens, roles or permissions, that caches are stale. */
  async bumpVersion(tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE auth_version SET version = version + 1 WHERE id = 1`);
  }

  /** The current auth version (one primary-key read). */
  async version(): Promise<number> {
    const [row]: Array<{ version: unknown }> = await this.dataSource.query(
      `SELECT version FROM auth_version WHERE id = 1`,
    );
    return Number(row?.version ?? 0);
  }

  /** Whether a token is bound to the role. */
  async roleHasTokens(roleId: number): Promise<boolean> {
    const rows = await this.dataSource.query(
      `SELECT id FROM api_tokens WHERE role_id = ? LIMIT 1`,
      [roleId],
    );
    return rows.length > 0;
  }

  /**
   * SDK tokens (client, frontend) that reach a project: those listing it and those for every
   * project (an empty list). One statement; the lists are JSON text, read here.
   */
  async sdkTokenCountForProject(projectId: string): Promise<number> {
    const rows: Array<{ projects: unknown }> = await this.dataSource.query(
      `SELECT projects FROM api_tokens WHERE type IN ('client', 'frontend')`,
    );
    return rows.filter((row) => {
      const projects = parseJson<string[]>(row.projects, []);
      return projects.length === 0 || projects.includes(projectId);
    }).length;
  }
}
