import { Injectable } from '@nestjs/common';
import type { SqlReader } from '../database/read-snapshot';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Constraint } from '../common/constraints/constraint';
import { parseJson, placeholders, toIso, toNumber } from '../database/sql-values';
import { segmentUsageCountSql } from '../features/strategies.store';
import type { SegmentDto } from './dto/segment.dto';
import { Dialect, dialectOf, forShare, forUpdate, jsonStrings } from '../database/sql-dialect';

/** A segment's id and name. */
export interface SegmentRef {
  id: number;
  name: string;
}

/** The raw SQL of `segments` (simple reads and writes go through the service's repository). */
/** The ids of the segments with these names, as a sub-select with one parameter per name. */
export function segmentIdsByNameSql(names: readonly string[]): string {
  return `SELECT s.id FROM segments s WHERE s.name IN (${placeholders(names)})`;
}

@Injectable()
export class SegmentsStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /**
   * Segment records with their usage counts, in one statement: all of them, or those with these
   * ids (one JSON parameter), by name then id.
   */
  async records(ids?: number[]): Promise<SegmentDto[]> {
    if (ids && ids.length === 0) return [];
    const rows: Array<{
      id: unknown;
      name: string;
      description: string | null;
      project_id: string | null;
      constraints: unknown;
      created_at: unknown;
      used_in_features: unknown;
      used_in_projects: unknown;
    }> = await this.dataSource.query(
      `SELECT s.id, s.name, s.description, s.project_id, s.constraints, s.created_at,
              ${segmentUsageCountSql('s.id', 'features')} AS used_in_features,
              ${segmentUsageCountSql('s.id', 'projects')} AS used_in_projects
         FROM segments s${ids ? ` WHERE s.id IN (${jsonStrings(this.dialect)})` : ''}
        ORDER BY s.name, s.id`,
      ids ? [JSON.stringify(ids.map(String))] : [],
    );
    return rows.map((row) => ({
      id: toNumber(row.id),
      name: row.name,
      description: row.description ?? null,
      project: row.project_id ?? null,
      constraints: parseJson<Constraint[]>(row.constraints, []),
      usedInFeatures: toNumber(row.used_in_features),
      usedInProjects: toNumber(row.used_in_projects),
      createdAt: toIso(row.created_at) ?? '',
    }));
  }

  /**
   * Which of these segments exist, share-locked until the transaction ends, so that a strategy
   * linking them cannot race a delete (docs/decisions-concurrency.md).
   */
  async lockShared(ids: number[], tx: EntityManager): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows: Array<{ id: unknown }> = await tx.query(
      `SELECT id FROM segments WHERE id IN (${placeholders(ids)}) ORDER BY id${forShare(this.dialect)}`,
      ids,
    );
    return new Set(rows.map((row) => toNumber(row.id)));
  }

  /** Locks the segment for a delete; false when it does not exist. */
  async lockForUpdate(id: number, tx: EntityManager): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT id FROM segments WHERE id = ?${forUpdate(this.dialect)}`,
      [id],
    );
    return rows.length > 0;
  }

  /** The segments limited to a project. */
  async ofProject(projectId: string): Promise<SegmentRef[]> {
    const rows: Array<{ id: unknown; name: string }> = await this.dataSource.query(
      `SELECT id, name FROM segments WHERE project_id = ? ORDER BY id`,
      [projectId],
    );
    return rows.map((row) => ({ id: toNumber(row.id), name: row.name }));
  }

  /** The name of a segment whose stored constraints contain this text, if any. */
  async firstWithConstraintContaining(
    needle: string,
    tx: EntityManager = this.dataSource.manager,
  ): Promise<string | null> {
    const [row]: Array<{ name: string }> = await tx.query(
      `SELECT name FROM segments WHERE INSTR(constraints, ?) > 0 LIMIT 1`,
      [needle],
    );
    return row?.name ?? null;
  }

  /** The export's read: these segments' ids and names (segments are few: one JSON parameter). */
  /** Ids and names of these segments, in one statement whatever their number. */
  async namesOf(ids: number[], tx: EntityManager = this.dataSource.manager): Promise<SegmentRef[]> {
    return this.readForExport(tx, ids);
  }

  async readForExport(tx: SqlReader, ids: number[]): Promise<SegmentRef[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: unknown; name: string }> = await tx.query(
      `SELECT id, name FROM segments WHERE id IN (${jsonStrings(this.dialect)})`,
      [JSON.stringify(ids.map(String))],
    );
    return rows.map((row) => ({ id: toNumber(row.id), name: row.name }));
  }

  /** The segments of these names, with the project each is limited to (null: any). */
  async byNames(
    tx: EntityManager,
    names: string[],
  ): Promise<Array<SegmentRef & { projectId: string | null }>> {
    if (names.length === 0) return [];
    const rows: Array<{ id: unknown; name: string; project_id: string | null }> = await tx.query(
      `SELECT id, name, project_id FROM segments WHERE name IN (${jsonStrings(this.dialect)})`,
      [JSON.stringify(names)],
    );
    return rows.map((row) => ({
      id: toNumber(row.id),
      name: row.name,
      projectId: row.project_id ?? null,
    }));
  }
}
