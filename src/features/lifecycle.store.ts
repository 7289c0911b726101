import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { dialectOf, jsonRecords } from '../database/sql-dialect';
import { featureNamesSql, FeatureSelection } from './features.store';
import type { LifecycleRow } from './feature-mappers';

/** The `feature_lifecycles` table: one row per stage a feature entered. */
@Injectable()
export class LifecycleStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ofFeatures(selection: FeatureSelection, tx: EntityManager): Promise<LifecycleRow[]> {
    const { list, params } = featureNamesSql(selection);
    return tx.query(
      `SELECT feature_name, stage, entered_stage_at FROM feature_lifecycles
        WHERE feature_name IN (${list})`,
      params,
    );
  }

  /** Every stage row of a feature, with the completion status. */
  async ofFeature(
    featureName: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<LifecycleRow[]> {
    return tx.query(
      `SELECT feature_name, stage, entered_stage_at, status, status_value
         FROM feature_lifecycles WHERE feature_name = ?`,
      [featureName],
    );
  }

  /** The import's new features enter the initial stage (one statement). */
  async startForImport(tx: EntityManager, names: string[], at: string): Promise<void> {
    if (names.length === 0) return;
    await tx.query(
      `INSERT INTO feature_lifecycles (feature_name, stage, entered_stage_at)
       SELECT j.name, 'initial', ? FROM (${jsonRecords(dialectOf(this.dataSource), { name: 'name' })}) j`,
      [at, JSON.stringify(names.map((name) => ({ name })))],
    );
  }
}
