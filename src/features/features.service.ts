import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BytePieces } from '../common/byte-pieces';
import { isUniqueViolation } from '../common/database-errors';
import { ConflictError, NameExistsError, NotFoundError, ValidationError } from '../common/errors';
import { ProjectsService } from '../projects/projects.service';
import type { CreateFeatureDto } from './dto/create-feature.dto';
import type { FeatureDto } from './dto/feature.dto';
import type { ValidateArchiveFeaturesDto } from './dto/validate-feature.dto';
import { DependenciesStore } from './dependencies.store';
import { Feature } from './feature.entity';
import { FeaturesStore } from './features.store';
import { FeatureEnvironmentsStore } from './feature-environments.store';
import { FeatureLookup } from './feature-lookup';
import { parseFeaturePatch } from './feature-patch';
import { FeatureReadModel } from './feature-read.model';
import { FeatureListModel } from './feature-list.model';
import { LifecycleService } from './lifecycle.service';
import { EventsService } from '../events/events.service';
import { currentPrincipal } from '../common/request-context';
import { FeaturePeopleService } from './feature-people.service';

/** Features themselves: create, read, change, archive, revive and delete for good. */
@Injectable()
export class FeaturesService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectsService,
    private readonly lookup: FeatureLookup,
    private readonly read: FeatureReadModel,
    private readonly lifecycle: LifecycleService,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
    private readonly dependencies: DependenciesStore,
    private readonly features: FeaturesStore,
    private readonly people: FeaturePeopleService,
    private readonly listModel: FeatureListModel,
  ) {}

  /**
   * The project's features that are not archived, by name, as the JSON bytes of `{features}` in
   * pieces (BytePieces): each item is what docs/decisions-features.md says a list carries, its
   * text written by the database (FeatureListModel) and closed here with its people and whether it
   * is the caller's favorite. Three statements, whatever the number of features (four for a
   * signed-in user's favorites).
   */
  async list(projectId: string): Promise<Buffer[]> {
    await this.projects.assertExists(projectId);
    const { people, favorites } = await this.people.of(this.listModel.namesOfProject(projectId));
    const items = await this.listModel.ofProject(projectId);
    const out = new BytePieces();
    out.text('{"features":[');
    const comma = Buffer.from(',');
    const nobodys = Buffer.from(',"favorite":false}');
    items.forEach((item, index) => {
      if (index > 0) out.bytes(comma);
      out.bytes(item.open);
      const found = people.get(item.name);
      const favorite = favorites.has(item.name);
      if (!found && !favorite) {
        out.bytes(nobodys);
        return;
      }
      let end = '';
      if (found?.createdBy) end += `,"createdBy":${JSON.stringify(found.createdBy)}`;
      if (found && found.collaborators.length > 0) {
        end += `,"collaborators":{"users":${JSON.stringify(found.collaborators)}}`;
      }
      out.text(`${end},"favorite":${favorite}}`);
    });
    out.text(']}');
    return out.end();
  }

  async get(projectId: string, name: string): Promise<FeatureDto> {
    // The record and its people are read together; the record's project settles the path, so
    // the common case needs no lookup first (one round trip fewer on MySQL/MariaDB).
    const [feature, people] = await Promise.all([this.read.feature(name), this.people.of([name])]);
    if (feature?.project !== projectId) {
      // Not in this project, or not at all: the lookup says which 404 applies.
      await this.lookup.inProject(projectId, name);
      return this.fullRecord(name);
    }
    const [filled] = this.people.filled([feature], people);
    return filled;
  }

  /**
   * What create checks of a new feature's name beyond its DTO: that no feature, archived or not,
   * has it. Create calls it, and so does the create form's validate route.
   */
  async validateName(name: string): Promise<void> {
    if (await this.dataSource.getRepository(Feature).exists({ where: { name } })) {
      throw NameExistsError.named('feature', name);
    }
  }

  /** The validate route's body may name the project; unlike create's path, a body name is 400. */
  async validateNew(name: string, projectId?: string | null): Promise<void> {
    if (projectId !== undefined && projectId !== null) {
      try {
        await this.projects.assertExists(projectId);
      } catch (error) {
        if (error instanceof NotFoundError)
          throw ValidationError.of('/body/projectId', error.message);
        throw error;
      }
    }
    await this.validateName(name);
  }

  /**
   * What archiving each listed feature (DELETE …/features/:name) would meet, for the archive
   * dialog: a feature outside the project is 400 (a body name), and the parents whose active
   * children stay outside the list are listed, as Unleash lists them, rather than refused.
   */
  async validateArchive(projectId: string, names: string[]): Promise<ValidateArchiveFeaturesDto> {
    await this.projects.assertExists(projectId);
    const unique = [...new Set(names)];
    const refs = await this.features.refsByNames(this.dataSource.manager, unique);
    const inProject = new Set(refs.filter((ref) => ref.projectId === projectId).map((r) => r.name));
    const details = names.flatMap((name, index) =>
      inProject.has(name)
        ? []
        : [
            {
              path: `/body/features/${index}`,
              message: `Could not find feature ${name} in project ${projectId}`,
            },
          ],
    );
    if (details.length > 0) throw ValidationError.listing(details, 'Unknown features');
    const listed = new Set(unique);
    const edges = await this.dependencies.activeChildrenOfAny(unique);
    const parents = new Set(edges.filter((e) => !listed.has(e.child)).map((e) => e.parent));
    return {
      parentsWithChildFeatures: unique.filter((name) => parents.has(name)),
      hasDeletedDependencies: false,
    };
  }

  /**
   * A new feature, with a disabled row in every environment linked to its project and the
   * lifecycle stage `initial`, in one transaction.
   */
  async create(projectId: string, dto: CreateFeatureDto): Promise<FeatureDto> {
    await this.projects.assertExists(projectId);
    await this.validateName(dto.name);
    const now = new Date();
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(Feature, {
          name: dto.name,
          projectId,
          type: dto.type ?? 'release',
          description: dto.description ?? null,
          stale: false,
          impressionData: dto.impressionData ?? false,
          archivedAt: null,
          // The search's createdBy filter reads this column.
          createdByUserId: currentPrincipal()?.user?.id ?? null,
          createdAt: now,
        });
        await this.featureEnvironments.addFeature(
          manager,
          dto.name,
          await this.projects.linkedEnvironments(projectId, manager),
        );
        await this.lifecycle.start(manager, dto.name, now);
        await this.events.record(manager, {
          type: 'feature-created',
          project: projectId,
          featureName: dto.name,
          data: {
            name: dto.name,
            type: dto.type ?? 'release',
            description: dto.description ?? null,
          },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw NameExistsError.named('feature', dto.name);
      throw error;
    }
    return this.fullRecord(dto.name);
  }

  /** PATCH with a JSON Patch array or a partial object (see feature-patch.ts). */
  async patch(projectId: string, name: string, body: unknown): Promise<FeatureDto> {
    const changes = await parseFeaturePatch(body);
    const feature = await this.lookup.inProject(projectId, name);
    this.lookup.assertActive(feature);
    if (Object.keys(changes).length > 0) {
      await this.dataSource.transaction(async (tx) => {
        await tx.update(Feature, { name }, changes);
        await this.events.record(tx, {
          type: 'feature-metadata-updated',
          project: projectId,
          featureName: name,
          data: changes,
        });
      });
    }
    return this.fullRecord(name);
  }

  /**
   * Archives the feature (it keeps its configuration). Archiving an archived feature changes
   * nothing. A feature that active features depend on cannot be archived.
   */
  async archive(projectId: string, name: string): Promise<void> {
    const feature = await this.lookup.inProject(projectId, name);
    if (feature.archived) return;
    await this.dataSource.transaction(async (manager) => {
      // The lock that dependencies.add takes too: no child can be added between this check and
      // the archiving, so an archived feature never has an active child.
      const [current] = await this.features.lockRefs([name], manager);
      if (!current) throw NotFoundError.named('feature', name);
      if (current.archived) return;
      const children = await this.dependencies.activeChildren(name, manager);
      if (children.length > 0) {
        throw new ConflictError(
          `Feature ${name} cannot be archived while other features depend on it: ${children.join(', ')}`,
        );
      }
      const now = new Date();
      await manager.update(Feature, { name }, { archivedAt: now });
      await this.lifecycle.archived(manager, name, now);
      await this.events.record(manager, {
        type: 'feature-archived',
        project: projectId,
        featureName: name,
      });
    });
  }

  /**
   * The archive page's revive of several features of a project: all or none. Every listed name
   * must be an archived feature of the project; the features are locked first, so a concurrent
   * revive or delete cannot slip between the check and the write.
   */
  async reviveMany(projectId: string, names: string[]): Promise<void> {
    await this.projects.assertExists(projectId);
    const unique = [...new Set(names)];
    await this.dataSource.transaction(async (manager) => {
      const refs = new Map(
        (await this.features.lockRefs(unique, manager)).map((ref) => [ref.name, ref]),
      );
      const details = names.flatMap((name, index) => {
        const ref = refs.get(name);
        const path = `/body/features/${index}`;
        if (ref?.projectId !== projectId)
          return [{ path, message: `Could not find feature ${name} in project ${projectId}` }];
        return ref.archived ? [] : [{ path, message: `Feature ${name} is not archived` }];
      });
      if (details.length > 0) throw ValidationError.listing(details);
      for (const name of unique) {
        await manager.update(Feature, { name }, { archivedAt: null });
        await this.lifecycle.revived(manager, name);
        await this.events.record(manager, {
          type: 'feature-revived',
          project: projectId,
          featureName: name,
        });
      }
    });
  }

  /**
   * Brings an archived feature back, in the lifecycle stage it held before. Checked under the
   * feature's lock, as archive() and deleteForGood() check: of two revives at once one answers
   * 400, and a delete for good cannot take a feature that a revive has just brought back.
   */
  async revive(name: string): Promise<FeatureDto> {
    const feature = await this.lookup.byName(name);
    const notArchived = () => ValidationError.of('/param/name', `Feature ${name} is not archived`);
    if (!feature.archived) throw notArchived();
    await this.dataSource.transaction(async (manager) => {
      const [current] = await this.features.lockRefs([name], manager);
      if (!current) throw NotFoundError.named('feature', name);
      if (!current.archived) throw notArchived();
      await manager.update(Feature, { name }, { archivedAt: null });
      await this.lifecycle.revived(manager, name);
      await this.events.record(manager, {
        type: 'feature-revived',
        project: feature.projectId,
        featureName: name,
      });
    });
    return this.fullRecord(name);
  }

  /**
   * Removes an archived feature for good, with everything that belongs to it (the foreign keys
   * cascade to its environments, strategies and their segment links, tags, dependencies in both
   * directions and lifecycle). An active feature must be archived first; checked under the
   * feature's lock, so that a revive at the same moment either comes first (409) or waits.
   */
  async deleteForGood(name: string): Promise<void> {
    const feature = await this.lookup.byName(name);
    const active = () =>
      new ConflictError(`Feature ${name} is not archived; archive it before deleting it`);
    if (!feature.archived) throw active();
    await this.dataSource.transaction(async (tx) => {
      const [current] = await this.features.lockRefs([name], tx);
      if (!current) throw NotFoundError.named('feature', name);
      if (!current.archived) throw active();
      await tx.delete(Feature, { name });
      await this.events.record(tx, {
        type: 'feature-deleted',
        project: feature.projectId,
        featureName: name,
      });
    });
  }

  private async fullRecord(name: string): Promise<FeatureDto> {
    const feature = await this.read.feature(name);
    // Only a concurrent delete can make it vanish between the write and this read.
    if (!feature) throw NotFoundError.named('feature', name);
    const [filled] = await this.people.fill([feature]);
    return filled;
  }
}
