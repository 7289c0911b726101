import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { placeholders, toNumber } from '../database/sql-values';
import { Dialect, dialectOf, forShare, forUpdate, jsonStrings } from '../database/sql-dialect';

/** A segment's id and name. */
export interface SegmentRef {
  id: number;
  name: string;
}

/** The raw SQL of `segments` (simple reads and writes go through the service's repository). */
@Injectable()
export class SegmentsStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
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
  async readForExport(tx: EntityManager, ids: number[]): Promise<SegmentRef[]> {
    if (ids.length === 0) return [];
    const rows: Array<{ id: unknown; name: string }> = await tx.query(
      `SELECT id, name FROM segments WHERE id IN (${jsonStrings(this.dialect)})`,
      [JSON.stringify(ids.map(String))],
    );
    return rows.map((row) => ({ id: toNumber(row.id), name: row.name }));
  }
}
