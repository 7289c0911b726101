import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, jsonStrings } from '../database/sql-dialect';
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
}
