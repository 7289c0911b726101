import { Injectable } from '@nestjs/common';
import type { SqlReader } from '../database/read-snapshot';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import {
  Dialect,
  dialectOf,
  forShare,
  forUpdate,
  jsonRecords,
  jsonStrings,
  sqlClaimNames,
} from '../database/sql-dialect';
import { parseJson, placeholders, toBoolean, toIso, toNumber } from '../database/sql-values';
import { contextFieldUsageCountSql } from '../features/strategies.store';
import { ContextField } from './context-field.entity';
import type { ContextFieldDto } from './dto/context-field.dto';
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

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /**
   * The records of every context field (or of one), with their usage counts, in one statement:
   * by sortOrder then name.
   */
  async records(name?: string): Promise<ContextFieldDto[]> {
    const rows: Array<{
      name: string;
      description: string | null;
      stickiness: unknown;
      sort_order: unknown;
      legal_values: unknown;
      created_at: unknown;
      used_in_features: unknown;
      used_in_projects: unknown;
    }> = await this.dataSource.query(
      `SELECT cf.name, cf.description, cf.stickiness, cf.sort_order, cf.legal_values, cf.created_at,
              ${contextFieldUsageCountSql('cf.name', 'features')} AS used_in_features,
              ${contextFieldUsageCountSql('cf.name', 'projects')} AS used_in_projects
         FROM context_fields cf${name === undefined ? '' : ' WHERE cf.name = ?'}
        ORDER BY cf.sort_order, cf.name`,
      name === undefined ? [] : [name],
    );
    return rows.map((row) => ({
      name: row.name,
      description: row.description ?? null,
      stickiness: toBoolean(row.stickiness),
      sortOrder: toNumber(row.sort_order),
      createdAt: toIso(row.created_at),
      usedInFeatures: toNumber(row.used_in_features),
      usedInProjects: toNumber(row.used_in_projects),
      legalValues: parseJson<LegalValueDto[]>(row.legal_values, []),
    }));
  }

  /**
   * Which of these fields exist, claimed until the transaction ends: a constraint written in the
   * same transaction names fields that cannot be deleted before it is committed, and a delete
   * that got there first is seen (docs/decisions-concurrency.md). The claim is a write
   * (write_claim flipped), not only a lock, so that on Galera it conflicts at certification with
   * a delete committed on another node, and the loser is retried (docs/decisions-galera.md).
   * When every field was claimed, that is the answer; otherwise one read says which exist.
   */
  async claim(names: string[], tx: EntityManager): Promise<Set<string>> {
    const distinct = [...new Set(names)];
    if (distinct.length === 0) return new Set();
    const result = await tx.update(
      ContextField,
      { name: In(distinct) },
      { writeClaim: () => '1 - write_claim' },
    );
    if (result.affected === distinct.length) return new Set(distinct);
    // A locking read sees what the UPDATE saw (the latest commit), not an older snapshot.
    const rows: Array<{ name: string }> = await tx.query(
      `SELECT name FROM context_fields WHERE name IN (${placeholders(distinct)})${forShare(this.dialect)}`,
      distinct,
    );
    return new Set(rows.map((row) => row.name));
  }

  /**
   * The import's form of claim() (issue 14): the fields its strategy constraints name, however
   * many, as one JSON parameter, sent before the import reads anything. What the import then reads
   * of them is read after the claim, so a field deleted meanwhile is seen as missing, and a delete
   * that comes later waits and then finds the imported constraints.
   */
  async claimForImport(tx: EntityManager, names: string[]): Promise<void> {
    if (names.length === 0) return;
    await tx.query(sqlClaimNames(this.dialect, 'context_fields'), [JSON.stringify(names)]);
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
  async readForExport(tx: SqlReader, names: string[]): Promise<ContextFieldDefinition[]> {
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
