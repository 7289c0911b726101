import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf, jsonRecords } from '../database/sql-dialect';
import { sqlTimestamp } from '../database/sql-values';
import type { TagDto } from './dto/tag.dto';

/** A JSON list of tags `{type, value}` as rows (values are at most 50 characters). */
const TAG_FIELDS = { type: 'name', value: 'name' } as const;

/** The `tags` table: every tag that exists, carried by a feature or not. */
@Injectable()
export class TagsStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** Every tag, or those of one type, by type then value (byte order). */
  async list(type?: string): Promise<TagDto[]> {
    const rows: Array<{ tag_type: string; tag_value: string }> = await this.dataSource.query(
      `SELECT tag_type, tag_value FROM tags${type === undefined ? '' : ' WHERE tag_type = ?'}
        ORDER BY tag_type, tag_value`,
      type === undefined ? [] : [type],
    );
    return rows.map((row) => ({ type: row.tag_type, value: row.tag_value }));
  }

  async exists(tag: TagDto): Promise<boolean> {
    const rows = await this.dataSource.query(
      `SELECT tag_type FROM tags WHERE tag_type = ? AND tag_value = ?`,
      [tag.type, tag.value],
    );
    return rows.length > 0;
  }

  /** Creates the tags among these that do not exist yet (one statement, any number of tags). */
  async insertMissing(tx: EntityManager, tags: TagDto[]): Promise<void> {
    if (tags.length === 0) return;
    await tx.query(
      `INSERT INTO tags (tag_type, tag_value, created_at)
       SELECT DISTINCT j.type, j.value, ? FROM (${jsonRecords(this.dialect, TAG_FIELDS)}) j
        WHERE NOT EXISTS (SELECT 1 FROM tags t WHERE t.tag_type = j.type AND t.tag_value = j.value)`,
      [sqlTimestamp(new Date()), JSON.stringify(tags)],
    );
  }

  /**
   * The import's write to the catalogue: adds the tags among these that do not exist yet, in one
   * statement whatever their number. A tag that exists, or that another transaction inserts at
   * the same moment (the feature-tag routes, another import), is left as it is: the NOT EXISTS
   * skips the stored ones without writing them, and the conflict clause turns a row committed
   * meanwhile into a no-op instead of a duplicate-key error that would fail the whole import.
   */
  async addForImport(tx: EntityManager, tags: TagDto[], at: string): Promise<void> {
    if (tags.length === 0) return;
    const conflict =
      this.dialect !== 'sqlite'
        ? 'ON DUPLICATE KEY UPDATE tag_type = tags.tag_type'
        : 'ON CONFLICT (tag_type, tag_value) DO NOTHING';
    await tx.query(
      `INSERT INTO tags (tag_type, tag_value, created_at)
       SELECT DISTINCT j.type, j.value, ? FROM (${jsonRecords(this.dialect, TAG_FIELDS)}) j
        WHERE NOT EXISTS (SELECT 1 FROM tags t WHERE t.tag_type = j.type AND t.tag_value = j.value)
       ${conflict}`,
      [at, JSON.stringify(tags)],
    );
  }
}
