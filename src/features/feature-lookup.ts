import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../common/errors';
import { parseJson, toBoolean } from '../database/sql-values';
import { EnvironmentsService } from '../environments/environments.service';
import { ProjectsService } from '../projects/projects.service';
import type { Variant } from './variant';

/** What the routes need to know of the feature named in the path. */
export interface FeatureRef {
  name: string;
  projectId: string;
  archived: boolean;
}

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
 * every feature route shares, and the one small read of context fields that the feature rules
 * need (the context-fields module exports no such method).
 */
@Injectable()
export class FeatureLookup {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectsService,
    private readonly environments: EnvironmentsService,
  ) {}

  /** The feature of that name, archived or not, or 404. */
  async byName(name: string, manager?: EntityManager): Promise<FeatureRef> {
    const feature = await this.find(name, manager);
    if (!feature) throw NotFoundError.named('feature', name);
    return feature;
  }

  /** The feature named in a project's path: 404 for an unknown project, feature, or another project's feature. */
  async inProject(projectId: string, name: string): Promise<FeatureRef> {
    const feature = await this.find(name);
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
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FeatureEnvironmentRef> {
    const env = await this.environments.findOrFail(environment);
    const [row]: Array<{ enabled: unknown; variants: unknown }> = await manager.query(
      `SELECT enabled, variants FROM feature_environments
        WHERE feature_name = ? AND environment_name = ?`,
      [feature.name, environment],
    );
    if (!row) {
      throw new NotFoundError(
        `Environment ${environment} is not linked to project ${feature.projectId}, so feature ${feature.name} has no configuration there`,
      );
    }
    return {
      feature,
      environment,
      environmentType: env.type,
      enabled: toBoolean(row.enabled),
      variants: parseJson<Variant[]>(row.variants, []),
    };
  }

  /** Which of these names are context fields (one query). */
  async existingContextFields(names: string[]): Promise<Set<string>> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return new Set();
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT name FROM context_fields WHERE name IN (${unique.map(() => '?').join(', ')})`,
      unique,
    );
    return new Set(rows.map((row) => row.name));
  }

  private async find(
    name: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<FeatureRef | null> {
    const [row]: Array<{ name: string; project_id: string; archived_at: unknown }> =
      await manager.query(`SELECT name, project_id, archived_at FROM features WHERE name = ?`, [
        name,
      ]);
    if (!row) return null;
    return {
      name: row.name,
      projectId: row.project_id,
      archived: row.archived_at !== null && row.archived_at !== undefined,
    };
  }
}
