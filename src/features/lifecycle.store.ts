import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { toNumber } from '../database/sql-values';
import { dialectOf, insertValues, jsonRecords } from '../database/sql-dialect';
import { featureNamesSql, FeatureSelection } from './features.store';
import type { LifecycleRow } from './feature-mappers';
import { LIFECYCLE_STAGES, LifecycleStage } from './feature-lifecycle.entity';

/**
 * The current lifecycle stage of the feature `f` as its rank in LIFECYCLE_STAGES: the furthest
 * stage entered (-1: none), a correlated sub-select on the primary key.
 */
export const CURRENT_STAGE_RANK_SQL = `COALESCE((SELECT MAX(${stageRankSql('fl.stage')})
  FROM feature_lifecycles fl WHERE fl.feature_name = f.name), -1)`;

/** A stage column as its rank in LIFECYCLE_STAGES (the order stages are entered in). */
export function stageRankSql(stageColumn: string): string {
  return `CASE ${stageColumn} ${LIFECYCLE_STAGES.map(
    (stage, rank) => `WHEN '${stage}' THEN ${rank}`,
  ).join(' ')} END`;
}

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

  /**
   * How many features are in each lifecycle stage now (one statement), optionally of one
   * project; archived features count under `archived`.
   */
  async currentStageCounts(projectId?: string): Promise<Map<string, number>> {
    const rows: Array<{ stage_rank: unknown; features: unknown }> = await this.dataSource.query(
      `SELECT s.stage_rank, COUNT(*) AS features
         FROM (SELECT ${CURRENT_STAGE_RANK_SQL} AS stage_rank FROM features f
                ${projectId === undefined ? '' : 'WHERE f.project_id = ?'}) s
        GROUP BY s.stage_rank`,
      projectId === undefined ? [] : [projectId],
    );
    return new Map(
      rows
        .filter((row) => toNumber(row.stage_rank) >= 0)
        .map((row) => [LIFECYCLE_STAGES[toNumber(row.stage_rank)], toNumber(row.features)]),
    );
  }

  /** The import's new features enter the initial stage (one statement). */
  async startForImport(tx: EntityManager, names: string[], at: string): Promise<void> {
    if (names.length === 0) return;
    const head = 'INSERT INTO feature_lifecycles (feature_name, stage, entered_stage_at)';
    if (dialectOf(this.dataSource) !== 'sqlite') {
      await insertValues(
        tx,
        head,
        names.map((name) => [name, 'initial', at]),
      );
      return;
    }
    await tx.query(
      `${head} SELECT j.name, 'initial', ? FROM (${jsonRecords(dialectOf(this.dataSource), { name: 'name' })}) j`,
      [at, JSON.stringify(names.map((name) => ({ name })))],
    );
  }

  /**
   * The import's features enabled in an environment enter `stage` (pre-live, or live in a
   * production environment) unless they are there or further already, as enabling one through
   * the API does (LifecycleService.enabledIn); one statement.
   */
  async enterForImport(
    tx: EntityManager,
    names: string[],
    stage: LifecycleStage,
    at: string,
  ): Promise<void> {
    if (names.length === 0) return;
    await tx.query(
      `INSERT INTO feature_lifecycles (feature_name, stage, entered_stage_at)
       SELECT f.name, ?, ?
         FROM (${jsonRecords(dialectOf(this.dataSource), { name: 'name' })}) j
         JOIN features f ON f.name = j.name
        WHERE ${CURRENT_STAGE_RANK_SQL} < ?`,
      [stage, at, JSON.stringify(names.map((name) => ({ name }))), LIFECYCLE_STAGES.indexOf(stage)],
    );
  }
}
