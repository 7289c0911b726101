import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { isUniqueViolation } from '../common/database-errors';
import { NameExistsError, NotFoundError, ProtectedEnvironmentError } from '../common/errors';
import { toBoolean, toNumber } from '../database/sql-values';
import { CreateEnvironmentDto, SORT_ORDER_MAX } from './dto/create-environment.dto';
import { EnvironmentDto, EnvironmentListDto } from './dto/environment.dto';
import { UpdateEnvironmentDto } from './dto/update-environment.dto';
import { Environment } from './environment.entity';
import { assertSameAsPath } from '../common/naming';

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
 * One statement for any number of environments: each count is a correlated subquery served by an
 * index on environment_name (project_environments, api_tokens, feature_environments).
 * apiTokenCount counts only the SDK tokens (client, frontend): admin and service tokens have no
 * environment. enabledToggleCount counts feature_environments rows that are enabled, archived
 * features included, as Unleash does.
 */
const RECORDS_SQL = `
  SELECT e.name, e.type, e.enabled, e.protected, e.sort_order,
    (SELECT COUNT(*) FROM project_environments pe
      WHERE pe.environment_name = e.name) AS project_count,
    (SELECT COUNT(*) FROM api_tokens t
      WHERE t.environment_name = e.name AND t.type IN ('client', 'frontend')) AS api_token_count,
    (SELECT COUNT(*) FROM feature_environments fe
      WHERE fe.environment_name = e.name AND fe.enabled = 1) AS enabled_toggle_count
  FROM environments e`;

@Injectable()
export class EnvironmentsService {
  constructor(
    @InjectRepository(Environment) private readonly environments: Repository<Environment>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** For routes that name an environment in the path: the environment, or 404. */
  async findOrFail(name: string): Promise<Environment> {
    const environment = await this.environments.findOne({ where: { name } });
    if (!environment) throw NotFoundError.named('environment', name);
    return environment;
  }

  /** Every environment with its counts, by sortOrder then name, in one statement. */
  async list(): Promise<EnvironmentListDto> {
    return { version: 1, environments: await this.records() };
  }

  /**
   * The Environment record (with counts) of one environment, or 404. Pass the manager of an open
   * transaction to read what it has written.
   */
  async getRecord(name: string, manager?: EntityManager): Promise<EnvironmentDto> {
    const [record] = await this.records([name], manager);
    if (!record) throw NotFoundError.named('environment', name);
    return record;
  }

  async create(dto: CreateEnvironmentDto): Promise<EnvironmentDto> {
    const sortOrder = dto.sortOrder ?? (await this.nextSortOrder());
    try {
      await this.environments.insert({
        name: dto.name,
        type: dto.type,
        enabled: true,
        protected: dto.protected ?? false,
        sortOrder,
        createdAt: new Date(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw NameExistsError.named('environment', dto.name);
      throw error;
    }
    return this.getRecord(dto.name);
  }

  async update(name: string, dto: UpdateEnvironmentDto): Promise<EnvironmentDto> {
    assertSameAsPath('name', dto.name, name);
    const environment = await this.findOrFail(name);
    this.refuseProtected(environment, 'updated');
    const changes: Partial<Environment> = {};
    if (dto.type !== undefined) changes.type = dto.type;
    if (dto.sortOrder !== undefined) changes.sortOrder = dto.sortOrder;
    if (Object.keys(changes).length > 0) await this.environments.update({ name }, changes);
    return this.getRecord(name);
  }

  /**
   * Removes the environment. The foreign keys cascade to what lives only in it: its project links,
   * feature-environment rows, strategies (and their segment links), role permission rows and the
   * SDK tokens scoped to it.
   */
  async remove(name: string): Promise<void> {
    const environment = await this.findOrFail(name);
    this.refuseProtected(environment, 'deleted');
    await this.environments.delete({ name });
  }

  /** Switches the environment on or off; allowed for protected environments too. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const environment = await this.findOrFail(name);
    if (environment.enabled !== enabled) await this.environments.update({ name }, { enabled });
  }

  private refuseProtected(environment: Environment, action: string): void {
    if (environment.protected) {
      throw new ProtectedEnvironmentError(
        `The environment ${environment.name} is protected and cannot be ${action}`,
      );
    }
  }

  /** A new environment without a sortOrder goes after the last one. */
  private async nextSortOrder(): Promise<number> {
    const [row] = await this.dataSource.query(
      `SELECT MAX(sort_order) AS highest FROM environments`,
    );
    const highest = row?.highest === null || row?.highest === undefined ? 0 : toNumber(row.highest);
    return Math.min(highest + 1, SORT_ORDER_MAX);
  }

  /** The records of these environments (all when omitted), by sortOrder then name. */
  private async records(names?: string[], manager?: EntityManager): Promise<EnvironmentDto[]> {
    if (names && names.length === 0) return [];
    const where = names ? ` WHERE e.name IN (${names.map(() => '?').join(', ')})` : '';
    const rows: EnvironmentRow[] = await (manager ?? this.dataSource).query(
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
}
