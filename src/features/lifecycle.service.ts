import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { CompleteLifecycleDto, LifecycleStageDto } from './dto/lifecycle.dto';
import { FeatureLifecycle, LifecycleStage } from './feature-lifecycle.entity';
import { FeatureLookup } from './feature-lookup';
import { FeatureReadModel } from './feature-read.model';
import { LifecycleStore } from './lifecycle.store';
import { stageOrder } from './feature-mappers';
import { isUniqueViolation } from '../common/database-errors';
import { EventsService } from '../events/events.service';

/**
 * A feature's lifecycle: one row per stage entered, and the current stage is the furthest one.
 * Stages are only entered forwards (initial → pre-live → live → completed → archived): enabling
 * a live feature in a development environment again records nothing. Reviving removes the
 * `archived` row, which returns the feature to the stage it held before.
 */
@Injectable()
export class LifecycleService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: FeatureLookup,
    private readonly read: FeatureReadModel,
    private readonly store: LifecycleStore,
  ) {}

  async list(projectId: string, name: string): Promise<LifecycleStageDto[]> {
    await this.lookup.inProject(projectId, name);
    return this.read.lifecycle(name);
  }

  async complete(
    projectId: string,
    name: string,
    dto: CompleteLifecycleDto,
  ): Promise<LifecycleStageDto[]> {
    const feature = await this.lookup.inProject(projectId, name);
    this.lookup.assertActive(feature);
    const status = dto.status ?? 'kept';
    const statusValue = dto.statusValue ?? null;
    await this.dataSource.transaction(async (manager) => {
      // Completing again records a new decision (status) but keeps when the stage was entered.
      const key = { featureName: name, stage: 'completed' as const };
      if (await manager.exists(FeatureLifecycle, { where: key })) {
        await manager.update(FeatureLifecycle, key, { status, statusValue });
      } else {
        await manager.insert(FeatureLifecycle, {
          ...key,
          enteredStageAt: new Date(),
          status,
          statusValue,
        });
      }
      await this.events.record(manager, {
        type: 'feature-completed',
        project: projectId,
        featureName: name,
        data: { status, statusValue },
      });
    });
    return this.read.lifecycle(name);
  }

  /** Records the first stage of a new feature. */
  async start(manager: EntityManager, featureName: string, at: Date): Promise<void> {
    await manager.insert(FeatureLifecycle, this.row(featureName, 'initial', at));
  }

  /** Enabled in an environment: live in a production environment, pre-live elsewhere. */
  async enabledIn(
    manager: EntityManager,
    featureName: string,
    environmentType: string,
  ): Promise<void> {
    await this.enter(manager, featureName, environmentType === 'production' ? 'live' : 'pre-live');
  }

  async archived(manager: EntityManager, featureName: string, at: Date): Promise<void> {
    await manager.delete(FeatureLifecycle, { featureName, stage: 'archived' });
    await manager.insert(FeatureLifecycle, this.row(featureName, 'archived', at));
  }

  async revived(manager: EntityManager, featureName: string): Promise<void> {
    await manager.delete(FeatureLifecycle, { featureName, stage: 'archived' });
  }

  /** Enters a stage unless the feature is already there or further. */
  private async enter(
    manager: EntityManager,
    featureName: string,
    stage: LifecycleStage,
  ): Promise<void> {
    const rows = await this.store.ofFeature(featureName, manager);
    const current = Math.max(-1, ...rows.map((row) => stageOrder(row.stage)));
    if (stageOrder(stage) <= current) return;
    try {
      await manager.insert(FeatureLifecycle, this.row(featureName, stage, new Date()));
    } catch (error) {
      // Two requests that enable the feature at once both find the stage absent; the one that
      // inserts second finds it entered, which is all it wanted.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  private row(featureName: string, stage: LifecycleStage, at: Date): FeatureLifecycle {
    return { featureName, stage, enteredStageAt: at, status: null, statusValue: null };
  }
}
