import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import { isUniqueViolation } from '../common/database-errors';
import { ConflictError, NameExistsError, NotFoundError, ValidationError } from '../common/errors';
import { EnvironmentsStore } from '../environments/environments.store';
import { FeatureEnvironmentsStore } from '../features/feature-environments.store';
import { FeaturesStore } from '../features/features.store';
import { StrategiesStore } from '../features/strategies.store';
import { SegmentsStore } from '../segments/segments.store';
import { CreateProjectDto, UpdateProjectDto } from './dto/create-project.dto';
import { ProjectDto, ProjectListDto } from './dto/project.dto';
import { Project } from './project.entity';
import { ProjectEnvironment } from './project-environment.entity';
import { ProjectsStore } from './projects.store';
import { assertSameAsPath } from '../common/naming';
import { EventsService } from '../events/events.service';

/** The project every fresh database has; like Unleash, it cannot be deleted. */
export const DEFAULT_PROJECT = 'default';

@Injectable()
export class ProjectsService {
  constructor(
    private readonly events: EventsService,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    @InjectRepository(ProjectEnvironment) private readonly links: Repository<ProjectEnvironment>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: ProjectsStore,
    private readonly environments: EnvironmentsStore,
    private readonly features: FeaturesStore,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
    private readonly strategies: StrategiesStore,
    private readonly segments: SegmentsStore,
  ) {}

  /** For routes that name a project in the path: 404 when it does not exist. */
  async assertExists(id: string): Promise<void> {
    if (!(await this.projects.exists({ where: { id } })))
      throw NotFoundError.named('project', id, 'id');
  }

  /** The environments the project is linked to, by name. */
  async linkedEnvironments(projectId: string, tx?: EntityManager): Promise<string[]> {
    return (await this.store.environmentsOf(projectId, tx)).sort(compareBytes);
  }

  /** The ids among these that name no project (one query); for bodies that list projects. */
  /** The projects linked to an environment, by id. */
  async linkedProjects(environment: string): Promise<string[]> {
    const rows = await this.links.find({ where: { environment }, select: { projectId: true } });
    return rows.map((row) => row.projectId).sort();
  }

  async missingIds(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.projects.find({ where: { id: In(ids) }, select: { id: true } });
    const found = new Set(rows.map((row) => row.id));
    return ids.filter((id) => !found.has(id));
  }

  async list(): Promise<ProjectListDto> {
    const projects = await this.projects.find({ order: { id: 'ASC' } });
    return { projects: await this.records(projects) };
  }

  async get(id: string): Promise<ProjectDto> {
    const project = await this.findOrFail(id);
    const [record] = await this.records([project]);
    return record;
  }

  /** Creates the project linked to every enabled environment, in one transaction. */
  async create(dto: CreateProjectDto): Promise<ProjectDto> {
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(Project, {
          id: dto.id,
          name: dto.name,
          description: dto.description ?? null,
          createdAt: new Date(),
        });
        await this.store.linkEnvironments(
          manager,
          dto.id,
          await this.environments.enabledNames(manager),
        );
        await this.events.record(manager, {
          type: 'project-created',
          project: dto.id,
          data: { id: dto.id, name: dto.name, description: dto.description ?? null },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw NameExistsError.named('project', dto.id);
      throw error;
    }
    return this.get(dto.id);
  }

  async update(id: string, dto: UpdateProjectDto): Promise<ProjectDto> {
    assertSameAsPath('id', dto.id, id);
    await this.assertExists(id);
    const changes: Partial<Project> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (Object.keys(changes).length > 0) {
      await this.events.write({ type: 'project-updated', project: id, data: changes }, (tx) =>
        tx.update(Project, { id }, changes),
      );
    }
    return this.get(id);
  }

  /**
   * Deletes a project that has no features (archived ones count: they keep their configuration
   * and may be revived). Its environment links and its project-scoped segments go with it.
   */
  async remove(id: string): Promise<void> {
    await this.assertExists(id);
    if (id === DEFAULT_PROJECT) {
      throw ValidationError.of('/param/id', 'The default project cannot be deleted');
    }
    if (await this.features.anyInProject(id)) {
      throw new ConflictError(
        `The project ${id} still has features (archived ones included); delete them first`,
      );
    }
    const segments = await this.segments.ofProject(id);
    const used = await this.strategies.firstUsedSegment(segments.map((segment) => segment.id));
    if (used !== null) {
      const name = segments.find((segment) => segment.id === used)?.name;
      throw new ConflictError(`The segment ${name} of project ${id} is used by strategies`);
    }
    // The foreign keys cascade to the links and segments, and refuse (409 through the filter)
    // should a feature appear meanwhile.
    await this.events.write({ type: 'project-deleted', project: id }, (tx) =>
      tx.delete(Project, { id }),
    );
  }

  /**
   * Links an environment to the project and gives each of the project's features (archived ones
   * included) a disabled feature-environment row there: one INSERT ... SELECT, in the same
   * transaction as the link.
   */
  async linkEnvironment(id: string, environment: string): Promise<ProjectDto> {
    await this.assertExists(id);
    if (!(await this.environments.exists(environment))) {
      throw ValidationError.of(
        '/body/environment',
        `Could not find environment with name ${environment}`,
      );
    }
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(ProjectEnvironment, { projectId: id, environment });
        await this.featureEnvironments.addProject(manager, id, environment);
        await this.events.record(manager, {
          type: 'project-environment-added',
          project: id,
          environment,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new NameExistsError(`The project ${id} already has the environment ${environment}`);
      }
      throw error;
    }
    return this.get(id);
  }

  /**
   * Unlinks an environment, as Unleash does: the project's features lose their configuration in
   * it (feature-environment rows and strategies, whose segment links cascade). Set-based deletes in
   * one transaction.
   */
  async unlinkEnvironment(id: string, environment: string): Promise<void> {
    await this.assertExists(id);
    if (!(await this.environments.exists(environment))) {
      throw NotFoundError.named('environment', environment);
    }
    await this.dataSource.transaction(async (manager) => {
      const linked = await manager.exists(ProjectEnvironment, {
        where: { projectId: id, environment },
      });
      if (!linked) {
        throw new NotFoundError(`The environment ${environment} is not linked to project ${id}`);
      }
      await this.strategies.removeProject(manager, id, environment);
      await this.featureEnvironments.removeProject(manager, id, environment);
      await manager.delete(ProjectEnvironment, { projectId: id, environment });
      await this.events.record(manager, {
        type: 'project-environment-removed',
        project: id,
        environment,
      });
    });
  }

  private async findOrFail(id: string): Promise<Project> {
    const project = await this.projects.findOne({ where: { id } });
    if (!project) throw NotFoundError.named('project', id, 'id');
    return project;
  }

  /** Projects with their environments and feature counts: two more statements for any number. */
  private async records(projects: Project[]): Promise<ProjectDto[]> {
    if (projects.length === 0) return [];
    const ids = projects.map((p) => p.id);
    const links = await this.links.find({ where: { projectId: In(ids) } });
    const featureCounts = await this.features.activeCounts(ids);
    const environments = new Map<string, string[]>(ids.map((id) => [id, []]));
    for (const link of links) environments.get(link.projectId)?.push(link.environment);
    return projects.map((project) => ({
      id: project.id,
      name: project.name,
      description: project.description,
      createdAt: project.createdAt.toISOString(),
      environments: (environments.get(project.id) ?? []).sort(compareBytes),
      featureCount: featureCounts.get(project.id) ?? 0,
    }));
  }
}
