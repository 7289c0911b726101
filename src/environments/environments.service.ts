import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { isUniqueViolation } from '../common/database-errors';
import { NameExistsError, NotFoundError, ProtectedEnvironmentError } from '../common/errors';
import { CreateEnvironmentDto, SORT_ORDER_MAX } from './dto/create-environment.dto';
import {
  EnvironmentDto,
  EnvironmentListDto,
  ProjectEnvironmentListDto,
} from './dto/environment.dto';
import { UpdateEnvironmentDto } from './dto/update-environment.dto';
import { Environment } from './environment.entity';
import { EnvironmentsStore } from './environments.store';
import { ProjectsService } from '../projects/projects.service';
import { assertSameAsPath } from '../common/naming';
import { EventsService } from '../events/events.service';
import { AuthStore } from '../auth/auth.store';
import { AuthVersion } from '../auth/auth-version.service';

/** The 409 of create and of the validate route, one record for both. */
const nameTaken = (name: string) => NameExistsError.named('environment', name);

@Injectable()
export class EnvironmentsService {
  constructor(
    private readonly events: EventsService,
    @InjectRepository(Environment) private readonly environments: Repository<Environment>,
    private readonly store: EnvironmentsStore,
    private readonly projects: ProjectsService,
    private readonly auth: AuthStore,
    private readonly authVersion: AuthVersion,
  ) {}

  /** For routes that name an environment in the path: the environment, or 404. */
  async findOrFail(name: string): Promise<Environment> {
    const environment = await this.environments.findOne({ where: { name } });
    if (!environment) throw NotFoundError.named('environment', name);
    return environment;
  }

  /** Every environment with its counts, by sortOrder then name, in one statement. */
  async list(): Promise<EnvironmentListDto> {
    return { version: 1, environments: await this.store.records() };
  }

  /** The environments linked to a project; 404 for an unknown project. */
  async ofProject(projectId: string): Promise<ProjectEnvironmentListDto> {
    await this.projects.assertExists(projectId);
    return { version: 1, environments: await this.store.ofProject(projectId) };
  }

  /**
   * The Environment record (with counts) of one environment, or 404. Pass the manager of an open
   * transaction to read what it has written.
   */
  async getRecord(name: string, manager?: EntityManager): Promise<EnvironmentDto> {
    const [record] = await this.store.records([name], manager);
    if (!record) throw NotFoundError.named('environment', name);
    return record;
  }

  /**
   * What create checks of a new environment's name beyond its DTO: that it is free. The create
   * form's validate route calls this; create itself relies on the unique index with the same 409.
   */
  async validateName(name: string): Promise<void> {
    if (await this.environments.exists({ where: { name } })) throw nameTaken(name);
  }

  async create(dto: CreateEnvironmentDto): Promise<EnvironmentDto> {
    const sortOrder = dto.sortOrder ?? (await this.nextSortOrder());
    try {
      const row = {
        name: dto.name,
        type: dto.type,
        enabled: true,
        protected: dto.protected ?? false,
        sortOrder,
        createdAt: new Date(),
      };
      await this.events.write(
        {
          type: 'environment-created',
          environment: dto.name,
          data: { ...row, createdAt: undefined },
        },
        (tx) => tx.insert(Environment, row),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(dto.name);
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
    if (Object.keys(changes).length > 0) {
      await this.events.write(
        { type: 'environment-updated', environment: name, data: changes },
        (tx) => tx.update(Environment, { name }, changes),
      );
    }
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
    // Role permissions scoped to the environment go with it (ON DELETE CASCADE): cached tokens
    // must not keep them for an environment created later under the same name.
    await this.events.write({ type: 'environment-deleted', environment: name }, async (tx) => {
      await tx.delete(Environment, { name });
      await this.auth.bumpVersion(tx);
    });
    this.authVersion.changed();
  }

  /** Switches the environment on or off; allowed for protected environments too. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const environment = await this.findOrFail(name);
    if (environment.enabled === enabled) return;
    await this.events.write(
      { type: enabled ? 'environment-enabled' : 'environment-disabled', environment: name },
      (tx) => tx.update(Environment, { name }, { enabled }),
    );
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
    const highest = (await this.store.highestSortOrder()) ?? 0;
    return Math.min(highest + 1, SORT_ORDER_MAX);
  }
}
