import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../common/errors';
import { ConstraintValidator } from '../context-fields/constraint-validator.service';
import { EnvironmentsService } from '../environments/environments.service';
import { ProjectsService } from '../projects/projects.service';
import { FeatureEnvironmentsStore } from './feature-environments.store';
import { FeatureRef, FeaturesStore } from './features.store';
import type { Variant } from './variant';

export type { FeatureRef } from './features.store';

/** A feature's row in one environment, with the environment's type. */
export interface FeatureEnvironmentRef {
  feature: FeatureRef;
  environment: string;
  environmentType: string;
  enabled: boolean;
  variants: Variant[];
}

/**
 * Resolves the names in a path (project, feature, environment) to rows, with the 404s and 400s
 * every feature route shares.
 */
@Injectable()
export class FeatureLookup {
  constructor(
    private readonly features: FeaturesStore,
    private readonly featureEnvironments: FeatureEnvironmentsStore,
    private readonly projects: ProjectsService,
    private readonly environments: EnvironmentsService,
    private readonly contextFields: ConstraintValidator,
  ) {}

  /** The feature of that name, archived or not, or 404. */
  async byName(name: string, manager?: EntityManager): Promise<FeatureRef> {
    const feature = await this.features.findRef(name, manager);
    if (!feature) throw NotFoundError.named('feature', name);
    return feature;
  }

  /** The feature named in a project's path: 404 for an unknown project, feature, or another project's feature. */
  async inProject(projectId: string, name: string): Promise<FeatureRef> {
    const feature = await this.features.findRef(name);
    if (feature?.projectId === projectId) return feature;
    await this.projects.assertExists(projectId);
    if (!feature) throw NotFoundError.named('feature', name);
    throw new NotFoundError(`Could not find feature ${name} in project ${projectId}`);
  }

  /** Archived features keep their configuration unchanged until they are revived. */
  assertActive(feature: FeatureRef, path = '/param/name'): void {
    if (feature.archived) {
      throw ValidationError.of(
        path,
        `Feature ${feature.name} is archived; revive it before changing it`,
      );
    }
  }

  /**
   * The feature's row in an environment: 404 for an unknown environment, and 404 when the
   * environment is not linked to the feature's project (there is no row).
   */
  async environmentOf(
    feature: FeatureRef,
    environment: string,
    manager?: EntityManager,
  ): Promise<FeatureEnvironmentRef> {
    const env = await this.environments.findOrFail(environment);
    const row = await this.featureEnvironments.find(feature.name, environment, manager);
    if (!row) {
      throw new NotFoundError(
        `Environment ${environment} is not linked to project ${feature.projectId}, so feature ${feature.name} has no configuration there`,
      );
    }
    return {
      feature,
      environment,
      environmentType: env.type,
      enabled: row.enabled,
      variants: row.variants,
    };
  }

  /** Which of these names are context fields (one query). */
  existingContextFields(names: string[], manager?: EntityManager): Promise<Set<string>> {
    return this.contextFields.existingNames(names, manager);
  }
}
