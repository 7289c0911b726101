import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { compareBytes } from '../common/byte-order';
import { ErrorDetail, NotFoundError, ValidationError } from '../common/errors';
import { ProjectsService } from '../projects/projects.service';
import type { CreateDependencyDto } from './dto/create-dependency.dto';
import type { DependencyDto } from './dto/feature.dto';
import { FeatureDependency } from './feature-dependency.entity';
import { FeatureLookup, FeatureRef } from './feature-lookup';
import { DependenciesStore } from './dependencies.store';
import { FeatureReadModel } from './feature-read.model';
import { EventsService } from '../events/events.service';
import { FeaturesStore } from './features.store';

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
    private readonly features: FeaturesStore,
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

  /**
   * Adds a parent, or changes the condition on one the child already has (`created: false`).
   * Both features are claimed (written, so locked on one node and in conflict across Galera
   * nodes) before anything that decides is read, so that two requests cannot
   * both pass the checks on a state the other is changing: A → B and B → A at once (a cycle), a
   * parent archived while it gains a child, or the same edge added twice (the second sees the
   * first and answers "unchanged").
   */
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

    const dependency = { child, parent: dto.feature, enabled, variants };
    const created = await this.dataSource.transaction(async (manager) => {
      const locked = await this.features.claimRefs([child, dto.feature], manager);
      const current = locked.find((ref) => ref.name === child);
      // Only a concurrent delete or move can have changed these since the lookup above.
      if (current?.projectId !== projectId) throw NotFoundError.named('feature', child);
      this.lookup.assertActive(current, '/param/child');
      const parent = locked.find((ref) => ref.name === dto.feature) ?? null;
      details.push(...(await this.parentProblems(manager, projectId, child, dto.feature, parent)));
      if (details.length > 0) throw ValidationError.listing(details);

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

  /** What keeps `parent` from becoming a parent of `child`; read under the lock of add(). */
  private async parentProblems(
    manager: EntityManager,
    projectId: string,
    child: string,
    parentName: string,
    parent: FeatureRef | null,
  ): Promise<ErrorDetail[]> {
    const at = '/body/feature';
    if (parentName === child) return [{ path: at, message: 'A feature cannot depend on itself' }];
    if (!parent) return [{ path: at, message: `Could not find feature with name ${parentName}` }];
    if (parent.archived) {
      return [{ path: at, message: `Feature ${parentName} is archived and cannot be a parent` }];
    }
    if (parent.projectId !== projectId) {
      return [
        {
          path: at,
          message: `Feature ${parent.name} is in project ${parent.projectId}; dependencies are only allowed within one project`,
        },
      ];
    }
    const rows = await this.store.touching(parentName, child, manager);
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
