import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, forShare, forUpdate, jsonStrings } from '../database/sql-dialect';
import { parseJson, placeholders, toBoolean, toNumber } from '../database/sql-values';
import type { LegalValueDto } from './dto/create-context-field.dto';

/** A context field as the export carries it. */
export interface ContextFieldDefinition {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValueDto[];
}

/** The raw SQL of `context_fields` (simple reads and writes go through the service's repository). */
@Injectable()
export class ContextFieldsStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /**
   * Which of these fields exist, share-locked until the transaction ends: a constraint written
   * in the same transaction names fields that cannot be deleted before it is committed, and a
   * delete that got there first is seen (docs/decisions-concurrency.md).
   */
  async lockShared(names: string[], tx: EntityManager): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows: Array<{ name: string }> = await tx.query(
      `SELECT name FROM context_fields WHERE name IN (${placeholders(names)})
        ORDER BY name${forShare(this.dialect)}`,
      names,
    );
    return new Set(rows.map((row) => row.name));
  }

  /** Locks the field for a delete; false when it does not exist. */
  async lockForUpdate(name: string, tx: EntityManager): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT name FROM context_fields WHERE name = ?${forUpdate(this.dialect)}`,
      [name],
    );
    return rows.length > 0;
  }

  /** The export's read: these fields (few: their names go as one JSON parameter). */
  async readForExport(tx: EntityManager, names: string[]): Promise<ContextFieldDefinition[]> {
    if (names.length === 0) return [];
    const rows: Array<{
      name: string;
      description: string | null;
      stickiness: unknown;
      sort_order: unknown;
      legal_values: unknown;
    }> = await tx.query(
      `SELECT name, description, stickiness, sort_order, legal_values FROM context_fields
        WHERE name IN (${jsonStrings(this.dialect)})`,
      [JSON.stringify(names)],
    );
    return rows.map((row) => ({
      name: row.name,
      description: row.description ?? null,
      stickiness: toBoolean(row.stickiness),
      sortOrder: toNumber(row.sort_order),
      legalValues: parseJson<LegalValueDto[]>(row.legal_values, []),
    }));
  }
}
