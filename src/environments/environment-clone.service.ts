import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from '../common/database-errors';
import { NameExistsError, ValidationError } from '../common/errors';
import { sqlTimestamp } from '../database/sql-values';
import { ProjectsService } from '../projects/projects.service';
import { CloneEnvironmentDto } from './dto/clone-environment.dto';
import { EnvironmentDto } from './dto/environment.dto';
import { EnvironmentsService } from './environments.service';

/**
 * The ids of the copied strategies are UUIDv7 (RFC 9562): the clone's time in milliseconds, then
 * random bits drawn once per clone, then (in the last 7 digits) the strategy's rank among the
 * copied ones, ordered by old id; RFC 9562 allows such a counter for monotonic ids. Derived this
 * way, the same old id maps to the same new id in both statements that need it (strategies and
 * their segment links), which keeps the copy set-based; and the new keys are ascending, so InnoDB
 * appends them to its clustered index instead of splitting pages all over it (measured: the
 * strategy copy took half the time of the same copy with random keys).
 */
function newIdPrefix(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  const random = randomBytes(6).toString('hex');
  const variant = '89ab'[parseInt(random[3], 16) % 4];
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 12)}`;
}

/** SQL of a new id: the prefix parameter and `rn`, the rank, as 7 zero-padded digits. */
const NEW_ID = `CONCAT(?, SUBSTR(CONCAT('0000000', ids.rn), -7))`;

function placeholders(values: unknown[]): string {
  return values.map(() => '?').join(', ');
}

@Injectable()
export class EnvironmentCloneService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environments: EnvironmentsService,
    private readonly projects: ProjectsService,
  ) {}

  /**
   * Creates `dto.name` as a copy of `sourceName` for the chosen projects (rules.md §4): in one
   * transaction and with a fixed number of set-based statements, whatever the number of features
   * and strategies.
   */
  async clone(sourceName: string, dto: CloneEnvironmentDto): Promise<EnvironmentDto> {
    const source = await this.environments.findOrFail(sourceName);
    const projectIds = await this.chooseProjects(sourceName, dto.projects);
    try {
      return await this.dataSource.transaction(async (manager) => {
        await this.copy(manager, source.name, source.sortOrder, dto, projectIds);
        return this.environments.getRecord(dto.name, manager);
      });
    } catch (error) {
      // Two clones to one name: the loser's INSERT of the environment hits the primary key.
      if (isUniqueViolation(error)) throw NameExistsError.named('environment', dto.name);
      throw error;
    }
  }

  private async chooseProjects(
    sourceName: string,
    requested: string[] | undefined,
  ): Promise<string[]> {
    if (requested === undefined) return this.projects.linkedProjects(sourceName);
    const unique = [...new Set(requested)];
    const missing = await this.projects.missingIds(unique);
    if (missing.length > 0) {
      throw new ValidationError(
        `Could not find project with id ${missing.join(', ')}`,
        missing.map((id) => ({
          path: `/body/projects/${requested.indexOf(id)}`,
          message: `Could not find project with id ${id}`,
        })),
      );
    }
    return unique;
  }

  private async copy(
    manager: EntityManager,
    source: string,
    sortOrder: number,
    dto: CloneEnvironmentDto,
    projectIds: string[],
  ): Promise<void> {
    const target = dto.name;
    const prefix = newIdPrefix();
    // Checked inside the transaction so that the common case answers 409 before any write; the
    // primary key still decides a race (see clone()).
    const taken = await manager.query(`SELECT name FROM environments WHERE name = ?`, [target]);
    if (taken.length > 0) throw NameExistsError.named('environment', target);

    await manager.query(
      `INSERT INTO environments (name, type, enabled, protected, sort_order, created_at) VALUES (?, ?, 1, 0, ?, ?)`,
      [target, dto.type, sortOrder, sqlTimestamp(new Date())],
    );
    if (projectIds.length > 0) {
      const inProjects = `f.project_id IN (${placeholders(projectIds)})`;
      await manager.query(
        `INSERT INTO project_environments (project_id, environment_name)
         SELECT id, ? FROM projects WHERE id IN (${placeholders(projectIds)})`,
        [target, ...projectIds],
      );
      // Archived features are copied too, so that a revived feature keeps its configuration.
      await manager.query(
        `INSERT INTO feature_environments (feature_name, environment_name, enabled, variants)
         SELECT fe.feature_name, ?, fe.enabled, fe.variants
         FROM feature_environments fe JOIN features f ON f.name = fe.feature_name
         WHERE fe.environment_name = ? AND ${inProjects}`,
        [target, source, ...projectIds],
      );
      // A chosen project that the source does not use still gets a (disabled) row for each of its
      // features, as linking a project does.
      await manager.query(
        `INSERT INTO feature_environments (feature_name, environment_name, enabled, variants)
         SELECT f.name, ?, 0, '[]' FROM features f
         WHERE ${inProjects} AND NOT EXISTS (
           SELECT 1 FROM feature_environments fe WHERE fe.feature_name = f.name AND fe.environment_name = ?)`,
        [target, ...projectIds, target],
      );
      // Every strategy to copy with its rank; both statements below number them alike.
      const idMap = `(SELECT fs.id AS old_id, ROW_NUMBER() OVER (ORDER BY fs.id) AS rn
         FROM feature_strategies fs JOIN features f ON f.name = fs.feature_name
         WHERE fs.environment_name = ? AND ${inProjects}) ids`;
      await manager.query(
        `INSERT INTO feature_strategies (id, feature_name, environment_name, strategy_name, title, parameters,
           constraints, variants, sort_order, disabled, created_at)
         SELECT ${NEW_ID}, fs.feature_name, ?, fs.strategy_name, fs.title, fs.parameters,
           fs.constraints, fs.variants, fs.sort_order, fs.disabled, fs.created_at
         FROM ${idMap} JOIN feature_strategies fs ON fs.id = ids.old_id
         ORDER BY ids.rn`,
        [prefix, target, source, ...projectIds],
      );
      await manager.query(
        `INSERT INTO feature_strategy_segments (strategy_id, segment_id)
         SELECT ${NEW_ID}, fss.segment_id
         FROM ${idMap} JOIN feature_strategy_segments fss ON fss.strategy_id = ids.old_id
         ORDER BY ids.rn, fss.segment_id`,
        [prefix, source, ...projectIds],
      );
    }
    if (dto.clonePermissions ?? true) {
      await manager.query(
        `INSERT INTO role_permissions (role_id, permission, environment_name)
         SELECT role_id, permission, ? FROM role_permissions WHERE environment_name = ?`,
        [target, source],
      );
    }
  }
}
