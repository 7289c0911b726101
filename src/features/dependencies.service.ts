import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import { ErrorDetail, NotFoundError, ValidationError } from '../common/errors';
import { ProjectsService } from '../projects/projects.service';
import type { CreateDependencyDto } from './dto/create-dependency.dto';
import type { DependencyDto } from './dto/feature.dto';
import { FeatureDependency } from './feature-dependency.entity';
import { FeatureLookup } from './feature-lookup';
import { DependenciesStore } from './dependencies.store';
import { FeatureReadModel } from './feature-read.model';
import { EventsService } from '../events/events.service';

/**
 * Parent features: a child is only on when its parents are. Dependencies are one level deep, as
 * in Unleash: a parent cannot have parents and a child cannot have children, which also rules
 * out cycles.
 */
@Injectable()
export class DependenciesService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: FeatureLookup,
    private readonly read: FeatureReadModel,
    private readonly store: DependenciesStore,
    private readonly projects: ProjectsService,
  ) {}

  /**
   * Whether any feature of the project has a parent. Unleash answers for the whole instance on
   * this path; the project in the path is the one the UI asks about, so the answer is scoped to it.
   */
  async anyInProject(projectId: string): Promise<boolean> {
    await this.projects.assertExists(projectId);
    return this.store.anyInProject(projectId);
  }

  /** The add-dependency dialog's list of possible parents for `child`. */
  async parentOptions(projectId: string, child: string): Promise<string[]> {
    await this.lookup.inProject(projectId, child);
    return this.store.parentOptions(projectId, child);
  }

  /** The variant names that a dependency on `parent` may require, in byte order. */
  async parentVariants(projectId: string, parent: string): Promise<string[]> {
    await this.lookup.inProject(projectId, parent);
    return (await this.store.variantNamesOf(parent)).sort(compareBytes);
  }

  async list(projectId: string, child: string): Promise<DependencyDto[]> {
    await this.lookup.inProject(projectId, child);
    return this.read.dependencies(child);
  }

  /** Adds a parent, or changes the condition on one the child already has (`created: false`). */
  async add(
    projectId: string,
    child: string,
    dto: CreateDependencyDto,
  ): Promise<{ created: boolean; dependency: DependencyDto }> {
    const feature = await this.lookup.inProject(projectId, child);
    this.lookup.assertActive(feature, '/param/child');
    const enabled = dto.enabled ?? true;
    const variants = dto.variants ?? [];
    const details: ErrorDetail[] = [];
    if (!enabled && variants.length > 0) {
      details.push({
        path: '/body/variants',
        message: 'variants can only be required of a parent that must be enabled (enabled: true)',
      });
    }
    details.push(...(await this.parentProblems(feature.projectId, child, dto.feature)));
    if (details.length > 0) throw ValidationError.listing(details);

    const dependency = { child, parent: dto.feature, enabled, variants };
    const created = await this.dataSource.transaction(async (manager) => {
      // Not `affected` of an UPDATE: MySQL may count only rows whose values changed.
      const key = { child, parent: dto.feature };
      const existed = await manager.exists(FeatureDependency, { where: key });
      if (existed) await manager.update(FeatureDependency, key, { enabled, variants });
      else await manager.insert(FeatureDependency, dependency);
      await this.events.record(manager, {
        type: 'feature-dependency-added',
        project: projectId,
        featureName: child,
        data: { feature: dto.feature, enabled, variants },
      });
      return !existed;
    });
    return { created, dependency: { feature: dto.feature, enabled, variants } };
  }

  async remove(projectId: string, child: string, parent: string): Promise<void> {
    const feature = await this.lookup.inProject(projectId, child);
    this.lookup.assertActive(feature, '/param/child');
    await this.dataSource.transaction(async (tx) => {
      const result = await tx.delete(FeatureDependency, { child, parent });
      if (!result.affected) {
        throw new NotFoundError(`Feature ${child} does not depend on feature ${parent}`);
      }
      await this.events.record(tx, {
        type: 'feature-dependency-removed',
        project: projectId,
        featureName: child,
        preData: { feature: parent },
      });
    });
  }

  async removeAll(projectId: string, child: string): Promise<void> {
    const feature = await this.lookup.inProject(projectId, child);
    this.lookup.assertActive(feature, '/param/child');
    await this.dataSource.transaction(async (tx) => {
      await tx.delete(FeatureDependency, { child });
      await this.events.record(tx, {
        type: 'feature-dependencies-removed',
        project: projectId,
        featureName: child,
      });
    });
  }

  private async parentProblems(
    projectId: string,
    child: string,
    parentName: string,
  ): Promise<ErrorDetail[]> {
    const at = '/body/feature';
    if (parentName === child) return [{ path: at, message: 'A feature cannot depend on itself' }];
    const parent = await this.lookup.byName(parentName).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!parent) return [{ path: at, message: `Could not find feature with name ${parentName}` }];
    if (parent.archived) {
      return [{ path: at, message: `Feature ${parentName} is archived and cannot be a parent` }];
    }
    if (parent.projectId !== projectId) {
      return [
        {
          path: at,
          message: `Feature ${parentName} is in project ${parent.projectId}; dependencies are only allowed within one project`,
        },
      ];
    }
    const rows = await this.store.touching(parentName, child);
    const problems: ErrorDetail[] = [];
    if (rows.some((row) => row.child === parentName)) {
      problems.push({
        path: at,
        message: `Feature ${parentName} depends on other features itself; a parent cannot have parents`,
      });
    }
    if (rows.some((row) => row.parent === child)) {
      problems.push({
        path: '/param/child',
        message: `Other features depend on ${child}; a parent cannot become a child`,
      });
    }
    return problems;
  }
}
