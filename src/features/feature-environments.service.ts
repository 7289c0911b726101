import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeatureEnvironment } from './feature-environment.entity';
import { FeatureLookup } from './feature-lookup';
import { LifecycleService } from './lifecycle.service';

/** Switching a feature on and off in one environment. */
@Injectable()
export class FeatureEnvironmentsService {
  constructor(
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
      if (enabled) await this.lifecycle.enabledIn(manager, name, row.environmentType);
    });
  }
}
