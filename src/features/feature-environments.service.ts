import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeatureEnvironment } from './feature-environment.entity';
import { FeatureLookup } from './feature-lookup';
import { LifecycleService } from './lifecycle.service';
import { EventsService } from '../events/events.service';

/** Switching a feature on and off in one environment. */
@Injectable()
export class FeatureEnvironmentsService {
  constructor(
    private readonly events: EventsService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lookup: FeatureLookup,
    private readonly lifecycle: LifecycleService,
  ) {}

  async setEnabled(
    projectId: string,
    name: string,
    environment: string,
    enabled: boolean,
  ): Promise<void> {
    const feature = await this.lookup.inProject(projectId, name);
    this.lookup.assertActive(feature);
    const row = await this.lookup.environmentOf(feature, environment);
    await this.dataSource.transaction(async (manager) => {
      await manager.update(FeatureEnvironment, { featureName: name, environment }, { enabled });
      await this.events.record(manager, {
        type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled',
        project: projectId,
        environment,
        featureName: name,
      });
      if (enabled) await this.lifecycle.enabledIn(manager, name, row.environmentType);
    });
  }
}
