import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from '../common/database-errors';
import { NameExistsError, NotFoundError, ValidationError } from '../common/errors';
import { AuthStore } from '../auth/auth.store';
import { AuthVersion } from '../auth/auth-version.service';
import { FeatureEnvironmentsStore } from '../features/feature-environments.store';
import { StrategiesStore } from '../features/strategies.store';
import { ProjectsStore } from '../projects/projects.store';
import { ProjectsService } from '../projects/projects.service';
import { CloneEnvironmentDto } from './dto/clone-environment.dto';
import { EnvironmentDto } from './dto/environment.dto';
import { EnvironmentsService } from './environments.service';
import { EnvironmentsStore } from './environments.store';
import { EventsService } from '../events/events.service';

@Injectable()
export class EnvironmentCloneService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environments: EnvironmentsService,
    private readonly store: EnvironmentsStore,
    private readonly projects: ProjectsService,
    private readonly projectLinks: ProjectsStore,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
    private readonly strategies: StrategiesStore,
    private readonly auth: AuthStore,
    private readonly authVersion: AuthVersion,
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
      const record = await this.dataSource.transaction(async (manager) => {
        const locked = await this.store.lockForUpdate(source.name, manager);
        // Deleted since the lookup above, by a request that got the lock first.
        if (!locked) throw NotFoundError.named('environment', sourceName);
        await this.copy(manager, source.name, locked.sortOrder, dto, projectIds);
        return this.environments.getRecord(dto.name, manager);
      });
      // The copied permissions moved the auth version (AuthStore.copyEnvironmentPermissions).
      if (dto.clonePermissions ?? true) this.authVersion.changed();
      return record;
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
    // An empty list means every project of the source, like an omitted one (rules.md §4): Unleash's
    // clone dialog sends [] and promises a copy of all flags.
    if (requested === undefined || requested.length === 0) {
      return this.projects.linkedProjects(sourceName);
    }
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
    // Checked inside the transaction so that the common case answers 409 before any write; the
    // primary key still decides a race (see clone()).
    if (await this.store.exists(target, manager))
      throw NameExistsError.named('environment', target);
    await this.store.insertClone(manager, target, dto.type, sortOrder);
    if (projectIds.length > 0) {
      await this.projectLinks.linkProjects(manager, target, projectIds);
      await this.featureEnvironments.copyEnvironment(manager, source, target, projectIds);
      await this.strategies.copyEnvironment(manager, source, target, projectIds);
    }
    if (dto.clonePermissions ?? true) {
      await this.auth.copyEnvironmentPermissions(manager, source, target);
    }
    await this.events.record(manager, {
      type: 'environment-cloned',
      environment: target,
      data: { source, name: target, type: dto.type, projects: projectIds },
    });
  }
}
