import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, jsonRecords, jsonStrings } from '../database/sql-dialect';
import { parseJson, toBoolean, toNumber } from '../database/sql-values';
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

  /** The import's new context fields; a name that exists by now is left as it is (one statement). */
  async insertMissing(
    tx: EntityManager,
    rows: Array<{
      name: string;
      description?: string;
      stickiness: number;
      sort_order: number;
      legal_values: string;
    }>,
    at: string,
  ): Promise<void> {
    if (rows.length === 0) return;
    const records = jsonRecords(this.dialect, {
      name: 'name',
      description: 'text',
      stickiness: 'int',
      sort_order: 'int',
      legal_values: 'text',
    });
    await tx.query(
      `INSERT INTO context_fields (name, description, stickiness, sort_order, legal_values, created_at)
       SELECT j.name, j.description, j.stickiness, j.sort_order, j.legal_values, ? FROM (${records}) j
        WHERE NOT EXISTS (SELECT 1 FROM context_fields c WHERE c.name = j.name)`,
      [at, JSON.stringify(rows)],
    );
  }
}
