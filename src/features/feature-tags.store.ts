import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  Dialect,
  dialectOf,
  forUpdate,
  insertValues,
  jsonRecords,
  sqlJsonObject,
  sqlJsonString,
  whileRunning,
  withoutSemiJoins,
} from '../database/sql-dialect';
import type { ReadSnapshot } from '../database/read-snapshot';
import { sqlTimestamp } from '../database/sql-values';
import type { TagDto } from '../tags/dto/tag.dto';
import {
  ExportFeatureItem,
  ExportScope,
  featureNamesSql,
  FeatureSelection,
} from './features.store';
import type { TagRow } from './feature-mappers';

/** A JSON list of tags `{type, value}` as rows (values are at most 50 characters). */
const TAG_FIELDS = { type: 'name', value: 'name' } as const;

/**
 * One key per feature tag, for the sets that drop repeats and compare stored tags with a file's.
 * NUL cannot occur in a name or a tag value (the name rule, the DTOs), so no two tags share one.
 */
export function featureTagKey(tag: { feature: string; type: string; value: string }): string {
  return `${tag.feature}\u0000${tag.type}\u0000${tag.value}`;
}

/** The `feature_tags` table. */
@Injectable()
export class FeatureTagsStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  /** Puts these tags on the feature, skipping those it has (one statement, any number). */
  async addMissing(
    tx: EntityManager,
    featureName: string,
    tags: TagDto[],
    createdByUserId: number | null = null,
  ): Promise<void> {
    if (tags.length === 0) return;
    await tx.query(
      `INSERT INTO feature_tags (feature_name, tag_type, tag_value, created_by_user_id, created_at)
       SELECT DISTINCT ?, j.type, j.value, ?, ? FROM (${jsonRecords(this.dialect, TAG_FIELDS)}) j
        WHERE NOT EXISTS (SELECT 1 FROM feature_tags ft
          WHERE ft.feature_name = ? AND ft.tag_type = j.type AND ft.tag_value = j.value)`,
      [featureName, createdByUserId, sqlTimestamp(new Date()), JSON.stringify(tags), featureName],
    );
  }

  /** Takes these tags off the feature; those it does not have are ignored (one statement). */
  async removeSome(tx: EntityManager, featureName: string, tags: TagDto[]): Promise<void> {
    if (tags.length === 0) return;
    await tx.query(
      `DELETE FROM feature_tags WHERE feature_name = ? AND EXISTS (
         SELECT 1 FROM (${jsonRecords(this.dialect, TAG_FIELDS)}) j
          WHERE j.type = feature_tags.tag_type AND j.value = feature_tags.tag_value)`,
      [featureName, JSON.stringify(tags)],
    );
  }

  /** Tags of the selected features, by feature, type, value. */
  async ofFeatures(selection: FeatureSelection, tx: EntityManager): Promise<TagRow[]> {
    const { list, params } = featureNamesSql(selection);
    return tx.query(
      `SELECT feature_name, tag_type, tag_value, created_by_user_id FROM feature_tags
        WHERE feature_name IN (${list}) ORDER BY feature_name, tag_type, tag_value`,
      params,
    );
  }

  async ofFeature(featureName: string, tx: EntityManager = this.dataSource.manager) {
    return this.ofFeatures({ names: [featureName] }, tx);
  }

  /**
   * The export's read: the selected features' tags, by feature, type and value (bytes), each as
   * the text of ExportFeatureTagDto, with its feature. `scan` walks the table in key order
   * instead of looking up each selected feature (withoutSemiJoins).
   */
  readForExport(
    reader: ReadSnapshot,
    scope: ExportScope,
    scan = false,
  ): AsyncIterable<ExportFeatureItem[]> {
    const item = sqlJsonObject(this.dialect, [
      ['featureName', sqlJsonString('ft.feature_name')],
      ['tagType', sqlJsonString('ft.tag_type')],
      ['tagValue', sqlJsonString('ft.tag_value')],
      ['createdByUserId', `COALESCE(CAST(ft.created_by_user_id AS CHAR), 'null')`],
    ]);
    const select = `SELECT ${item} AS item, ft.feature_name FROM feature_tags ft
        WHERE ft.feature_name IN (${scope.sql}) ORDER BY ft.feature_name, ft.tag_type, ft.tag_value`;
    return reader.tuples(scan ? withoutSemiJoins(this.dialect, select) : select, scope.params);
  }

  /**
   * The import's write: the tags of these features become `rows`. Tags the file repeats stay as
   * they are (creator and time included); the others are deleted, and the file's new ones
   * inserted. One read, locking the stored tags (FOR UPDATE, after the import has written the
   * features), then at most two writes whatever the number of features, and none when nothing
   * differs (a re-import of the same file).
   */
  async replaceForImport(
    tx: EntityManager,
    featureNames: string[],
    rows: Array<{ feature: string; type: string; value: string }>,
    at: string,
  ): Promise<void> {
    if (featureNames.length === 0) return;
    const dialect = this.dialect;
    const selected = `(${jsonRecords(dialect, { name: 'name' })}) j`;
    type Stored = Array<{ feature_name: string; tag_type: string; tag_value: string }>;
    // The file's keys are worked out while the server reads the stored tags.
    const [stored, keys] = await whileRunning<Stored, string[]>(
      tx.query(
        // As strategies.store's read: a join on MySQL, IN (sub-select) on SQLite.
        dialect !== 'sqlite'
          ? `SELECT ft.feature_name, ft.tag_type, ft.tag_value FROM ${selected}
               JOIN feature_tags ft ON ft.feature_name = j.name${forUpdate(dialect)}`
          : `SELECT ft.feature_name, ft.tag_type, ft.tag_value FROM feature_tags ft
              WHERE ft.feature_name IN (SELECT j.name FROM ${selected})`,
        [JSON.stringify(featureNames.map((name) => ({ name })))],
      ),
      () => rows.map(featureTagKey),
    );
    const wanted = new Set(keys);
    const kept = new Set<string>();
    const stale: Array<{ feature: string; type: string; value: string }> = [];
    for (const row of stored) {
      const tag = { feature: row.feature_name, type: row.tag_type, value: row.tag_value };
      const key = featureTagKey(tag);
      if (wanted.has(key)) kept.add(key);
      else stale.push(tag);
    }
    const added = kept.size === 0 ? rows : rows.filter((_row, index) => !kept.has(keys[index]));
    const triple = `(${jsonRecords(dialect, { feature: 'name', type: 'name', value: 'name' })}) j`;
    if (stale.length > 0) {
      // A join on MySQL: MariaDB 10.11 would run a DELETE's IN (...) per row (see strategies.store).
      await tx.query(
        dialect !== 'sqlite'
          ? `DELETE ft FROM ${triple} JOIN feature_tags ft
               ON ft.feature_name = j.feature AND ft.tag_type = j.type AND ft.tag_value = j.value`
          : `DELETE FROM feature_tags WHERE (feature_name, tag_type, tag_value) IN
               (SELECT j.feature, j.type, j.value FROM ${triple})`,
        [JSON.stringify(stale)],
      );
    }
    if (added.length === 0) return;
    const head = 'INSERT INTO feature_tags (feature_name, tag_type, tag_value, created_at)';
    if (dialect !== 'sqlite') {
      await insertValues(
        tx,
        head,
        added.map((r) => [r.feature, r.type, r.value, at]),
      );
      return;
    }
    await tx.query(`${head} SELECT j.feature, j.type, j.value, ? FROM ${triple}`, [
      at,
      JSON.stringify(added),
    ]);
  }
}
