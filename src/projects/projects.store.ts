import { Injectable } from '@nestjs/common';
import type { SqlReader } from '../database/read-snapshot';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { placeholders } from '../database/sql-values';

/** Projects linked to an environment, as a correlated count; `envColumn` is the outer column. */
export function linkedProjectsCountSql(envColumn: string): string {
  return `(SELECT COUNT(*) FROM project_environments pe
      WHERE pe.environment_name = ${envColumn})`;
}

/** The names of the environments linked to a project, as a sub-select taking the project id. */
export const PROJECT_ENVIRONMENT_NAMES_SQL =
  'SELECT pe.environment_name FROM project_environments pe WHERE pe.project_id = ?';

/** The raw SQL of `projects` and `project_environments` (simple reads go through the service). */
@Injectable()
export class ProjectsStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Whether the project exists, read inside a transaction. */
  async exists(id: string, tx: SqlReader): Promise<boolean> {
    const rows = await tx.query(`SELECT id FROM projects WHERE id = ?`, [id]);
    return rows.length > 0;
  }

  /** Links these projects to an environment, skipping ids that name no project. */
  async linkProjects(tx: EntityManager, environment: string, projectIds: string[]): Promise<void> {
    if (projectIds.length === 0) return;
    await tx.query(
      `INSERT INTO project_environments (project_id, environment_name)
       SELECT id, ? FROM projects WHERE id IN (${placeholders(projectIds)})`,
      [environment, ...projectIds],
    );
  }

  /** Links a project to these environments. */
  async linkEnvironments(
    tx: EntityManager,
    projectId: string,
    environments: string[],
  ): Promise<void> {
    if (environments.length === 0) return;
    await tx.query(
      `INSERT INTO project_environments (project_id, environment_name)
       VALUES ${environments.map(() => '(?, ?)').join(', ')}`,
      environments.flatMap((environment) => [projectId, environment]),
    );
  }

  /** The environments linked to a project, read inside a transaction. */
  async environmentsOf(
    projectId: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: Array<{ environment_name: string }> = await tx.query(
      `SELECT environment_name FROM project_environments WHERE project_id = ?`,
      [projectId],
    );
    return rows.map((row) => row.environment_name);
  }
}
