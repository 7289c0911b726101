import { Injectable } from '@nestjs/common';
import type { SqlReader } from '../database/read-snapshot';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, jsonRecords, jsonStrings } from '../database/sql-dialect';
import type { TagTypeDto } from './dto/tag-type.dto';

/** The raw SQL of `tag_types` (simple reads and writes go through the service's repository). */
@Injectable()
export class TagTypesStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** The export's read: these tag types (few: their names go as one JSON parameter). */
  async readForExport(tx: SqlReader, names: string[]): Promise<TagTypeDto[]> {
    if (names.length === 0) return [];
    const rows: TagTypeDto[] = await tx.query(
      `SELECT name, description, icon FROM tag_types WHERE name IN (${jsonStrings(this.dialect)})`,
      [JSON.stringify(names)],
    );
    return rows.map((row) => ({
      name: row.name,
      description: row.description ?? null,
      icon: row.icon ?? null,
    }));
  }

  /** The import's new tag types; a name that exists by now is left as it is (one statement). */
  async insertMissing(
    tx: EntityManager,
    rows: Array<{ name: string; description?: string; icon?: string }>,
    at: string,
  ): Promise<void> {
    if (rows.length === 0) return;
    const records = jsonRecords(this.dialect, { name: 'name', description: 'text', icon: 'text' });
    await tx.query(
      `INSERT INTO tag_types (name, description, icon, created_at)
       SELECT j.name, j.description, j.icon, ? FROM (${records}) j
        WHERE NOT EXISTS (SELECT 1 FROM tag_types t WHERE t.name = j.name)`,
      [at, JSON.stringify(rows)],
    );
  }
}
