import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { placeholders, sqlTimestamp, toNumber } from '../database/sql-values';
import type { FeatureSearchFilter, SetCondition } from './feature-search-query';
import { CURRENT_STAGE_RANK_SQL } from './lifecycle.store';

/** When a feature was last seen in any environment; NULL when never. */
const LAST_SEEN_SQL = `(SELECT MAX(fe.last_seen_at) FROM feature_environments fe WHERE fe.feature_name = f.name)`;

/** `LIKE ... ESCAPE '!'`: the same escape character works on both databases. */
function likePattern(term: string): string {
  return `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/**
 * One page of the feature search (`GET /api/admin/search/features`): the names of the matching
 * features in page order and the number of matches, in one statement whatever the page size or
 * the total (COUNT(*) OVER () counts before LIMIT). Only an empty page past the end costs a
 * second statement for the total.
 */
@Injectable()
export class FeatureSearchModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(filter: FeatureSearchFilter): Promise<{ names: string[]; total: number }> {
    const params: unknown[] = [];
    const where = this.conditions(filter, params);
    const order = this.ordering(filter, params);
    const rows: Array<{ name: string; total: unknown }> = await this.dataSource.query(
      `SELECT f.name, COUNT(*) OVER () AS total FROM features f WHERE ${where}
        ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, filter.limit, filter.offset],
    );
    if (rows.length > 0) {
      return { names: rows.map((row) => row.name), total: toNumber(rows[0].total) };
    }
    if (filter.offset === 0) return { names: [], total: 0 };
    const countParams: unknown[] = [];
    const [count]: Array<{ total: unknown }> = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM features f WHERE ${this.conditions(filter, countParams)}`,
      countParams,
    );
    return { names: [], total: toNumber(count?.total) };
  }

  private conditions(filter: FeatureSearchFilter, params: unknown[]): string {
    const parts = [filter.archived ? 'f.archived_at IS NOT NULL' : 'f.archived_at IS NULL'];
    const set = <T>(column: string, condition: SetCondition<T> | undefined, nullable = false) => {
      if (!condition) return;
      if (condition.values.length === 0) {
        if (!condition.negated) parts.push('1 = 0');
        return;
      }
      params.push(...condition.values);
      const list = placeholders(condition.values);
      if (!condition.negated) parts.push(`${column} IN (${list})`);
      else if (nullable) parts.push(`(${column} IS NULL OR ${column} NOT IN (${list}))`);
      else parts.push(`${column} NOT IN (${list})`);
    };
    set('f.project_id', filter.project);
    set('f.type', filter.type);
    set('f.stale', filter.stale && { ...filter.stale, values: filter.stale.values.map(Number) });
    set(CURRENT_STAGE_RANK_SQL, filter.lifecycle);
    set('f.created_by_user_id', filter.createdBy, true);
    if (filter.createdBefore) {
      parts.push('f.created_at < ?');
      params.push(sqlTimestamp(filter.createdBefore));
    }
    if (filter.createdOnOrAfter) {
      parts.push('f.created_at >= ?');
      params.push(sqlTimestamp(filter.createdOnOrAfter));
    }
    if (filter.seenBefore || filter.seenOnOrAfter) {
      const bound = (filter.seenBefore ?? filter.seenOnOrAfter) as Date;
      parts.push(`${LAST_SEEN_SQL} ${filter.seenBefore ? '<' : '>='} ?`);
      params.push(sqlTimestamp(bound));
    }
    if (filter.tag) {
      const tagged = (tags: Array<{ type: string; value: string }>) => {
        for (const tag of tags) params.push(tag.type, tag.value);
        const pairs = tags.map(() => '(ft.tag_type = ? AND ft.tag_value = ?)').join(' OR ');
        return `f.name IN (SELECT ft.feature_name FROM feature_tags ft WHERE ${pairs})`;
      };
      const { match, negated, tags } = filter.tag;
      const sql = match === 'any' ? tagged(tags) : tags.map((tag) => tagged([tag])).join(' AND ');
      parts.push(negated ? `NOT (${sql})` : `(${sql})`);
    }
    if (filter.terms.length > 0) {
      const anyTerm = filter.terms.map((term) => {
        const pattern = likePattern(term);
        params.push(pattern, pattern, pattern, pattern);
        return `LOWER(f.name) LIKE ? ESCAPE '!' OR LOWER(COALESCE(f.description, '')) LIKE ? ESCAPE '!'
          OR f.name IN (SELECT ft.feature_name FROM feature_tags ft
                         WHERE LOWER(ft.tag_value) LIKE ? ESCAPE '!' OR LOWER(ft.tag_type) LIKE ? ESCAPE '!')`;
      });
      parts.push(`(${anyTerm.join(' OR ')})`);
    }
    return parts.join(' AND ');
  }

  /** Ties fall back to creation time, then name, so that pages never overlap. */
  private ordering(filter: FeatureSearchFilter, params: unknown[]): string {
    const dir = filter.descending ? 'DESC' : 'ASC';
    const ties = 'f.created_at ASC, f.name ASC';
    if ('environment' in filter.sort) {
      // The sub-select appears twice, so its parameter does too.
      params.push(filter.sort.environment, filter.sort.environment);
      const enabled = `(SELECT fe.enabled FROM feature_environments fe
        WHERE fe.feature_name = f.name AND fe.environment_name = ?)`;
      // Features without the environment last, in both directions.
      return `CASE WHEN ${enabled} IS NULL THEN 1 ELSE 0 END, ${enabled} ${dir}, ${ties}`;
    }
    switch (filter.sort.field) {
      case 'createdAt':
        return `f.created_at ${dir}, f.name ASC`;
      case 'name':
        return `f.name ${dir}`;
      case 'type':
        return `f.type ${dir}, ${ties}`;
      case 'stale':
        return `f.stale ${dir}, ${ties}`;
      case 'project':
        return `f.project_id ${dir}, ${ties}`;
      case 'lastSeenAt': {
        return `CASE WHEN ${LAST_SEEN_SQL} IS NULL THEN 1 ELSE 0 END, ${LAST_SEEN_SQL} ${dir}, ${ties}`;
      }
    }
  }
}
