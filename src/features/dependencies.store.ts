import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { featureNamesSql, FeatureSelection } from './features.store';
import type { DependencyRow } from './feature-mappers';

/** The `feature_dependencies` table: child → parent edges. */
@Injectable()
export class DependenciesStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Edges where a selected feature is the child or the parent, by child then parent. */
  async around(selection: FeatureSelection, tx: EntityManager): Promise<DependencyRow[]> {
    const { list, params } = featureNamesSql(selection);
    return tx.query(
      `SELECT child, parent, enabled, variants FROM feature_dependencies
        WHERE child IN (${list}) OR parent IN (${list}) ORDER BY child, parent`,
      [...params, ...params],
    );
  }

  /** The parents of a feature, by name. */
  async parentsOf(
    child: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<DependencyRow[]> {
    return tx.query(
      `SELECT child, parent, enabled, variants FROM feature_dependencies
        WHERE child = ? ORDER BY parent`,
      [child],
    );
  }

  /** Edges that leave `parent` or enter `child`: what decides whether child → parent may be added. */
  async touching(
    parent: string,
    child: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<Array<{ child: string; parent: string }>> {
    return tx.query(
      `SELECT child, parent FROM feature_dependencies WHERE child = ? OR parent = ?`,
      [parent, child],
    );
  }

  /** The active features that depend on `parent`, by name. */
  async activeChildren(
    parent: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: Array<{ child: string }> = await tx.query(
      `SELECT d.child FROM feature_dependencies d JOIN features f ON f.name = d.child
        WHERE d.parent = ? AND f.archived_at IS NULL ORDER BY d.child`,
      [parent],
    );
    return rows.map((row) => row.child);
  }

  /** The export's read: the parents of the selected features. */
  async readForExport(tx: EntityManager, selectionTable: string): Promise<DependencyRow[]> {
    return tx.query(
      `SELECT d.child, d.parent, d.enabled, d.variants
         FROM ${selectionTable} sel JOIN feature_dependencies d ON d.child = sel.name`,
    );
  }
}
