import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { placeholders, sqlTimestamp, toNumber } from '../database/sql-values';
import type { FeatureSearchFilter, SetCondition } from './feature-search-query';
import { CURRENT_STAGE_RANK_SQL } from './lifecycle.store';
import { segmentIdsByNameSql } from '../segments/segments.store';
import { isFavoriteSql } from '../users/users.store';

/**
 * Whether the page follows features(project_id, archived_at, created_at): the active features of
 * one project, by creation time, without a favorites-first part.
 */
function servedByIndex(filter: FeatureSearchFilter, userId?: number): boolean {
  const { terms, project, sort } = filter;
  const others: unknown[] = [
    filter.type,
    filter.stale,
    filter.lifecycle,
    filter.createdBy,
    filter.createdBefore,
    filter.createdOnOrAfter,
    filter.seenBefore,
    filter.seenOnOrAfter,
    filter.tag,
    filter.segment,
    filter.status,
  ];
  return (
    terms.length === 0 &&
    !filter.archived &&
    project !== undefined &&
    !project.negated &&
    project.values.length === 1 &&
    others.every((condition) => condition === undefined) &&
    'field' in sort &&
    sort.field === 'createdAt' &&
    !(filter.favoritesFirst && userId !== undefined)
  );
}

/** When a feature was last seen in any environment; NULL when never. */
const LAST_SEEN_SQL = `(SELECT MAX(fe.last_seen_at) FROM feature_environments fe WHERE fe.feature_name = f.name)`;

/** `LIKE ... ESCAPE '!'`: the same escape character works on both databases. */
function likePattern(term: string): string {
  return `%${term.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/**
 * One page of the feature search (`GET /api/admin/search/features`): the names of the matching
 * features in page order and the number of matches, in at most two statements whatever the page
 * size or the total (which two depends on whether the index serves the page: see page()).
 */
@Injectable()
export class FeatureSearchModel {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(
    filter: FeatureSearchFilter,
    userId?: number,
  ): Promise<{ names: string[]; total: number }> {
    const params: unknown[] = [];
    const where = this.conditions(filter, params);
    const countParams = [...params];
    const order = this.ordering(filter, params, userId);
    const count = async () =>
      toNumber(
        (
          await this.dataSource.query<Array<{ total: unknown }>>(
            `SELECT COUNT(*) AS total FROM features f WHERE ${where}`,
            countParams,
          )
        )[0]?.total,
      );
    if (servedByIndex(filter, userId)) {
      // A project's page by creation time, from features(project_id, archived_at, created_at):
      // the page reads `limit` index entries and the count reads the index only. One statement
      // with COUNT(*) OVER () would read and sort every match to return 50.
      const rows: Array<{ name: string }> = await this.dataSource.query(
        `SELECT f.name FROM features f WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
        [...params, filter.limit, filter.offset],
      );
      const last = rows.length > 0 && rows.length < filter.limit;
      return {
        names: rows.map((row) => row.name),
        total: last ? filter.offset + rows.length : await count(),
      };
    }
    // Other filters read every candidate anyway (LIKE, tag and segment sub-selects): one pass
    // that counts before LIMIT costs less than a page and a count that both scan.
    const rows: Array<{ name: string; total: unknown }> = await this.dataSource.query(
      `SELECT f.name, COUNT(*) OVER () AS total FROM features f WHERE ${where}
        ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...params, filter.limit, filter.offset],
    );
    if (rows.length > 0) {
      return { names: rows.map((row) => row.name), total: toNumber(rows[0].total) };
    }
    return { names: [], total: filter.offset === 0 ? 0 : await count() };
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
      // Never seen (NULL) matches neither, as in Unleash.
      parts.push(`${LAST_SEEN_SQL} ${filter.seenBefore ? '<' : '>='} ?`);
      params.push(sqlTimestamp((filter.seenBefore ?? filter.seenOnOrAfter) as Date));
    }
    if (filter.status) {
      const states = filter.status.map(({ environment, enabled }) => {
        params.push(environment, enabled ? 1 : 0);
        return '(fe.environment_name = ? AND fe.enabled = ?)';
      });
      parts.push(`EXISTS (SELECT 1 FROM feature_environments fe
        WHERE fe.feature_name = f.name AND (${states.join(' OR ')}))`);
    }
    if (filter.segment) {
      const using = (names: string[]) => {
        params.push(...names);
        return `f.name IN (SELECT fs.feature_name FROM feature_strategies fs
          JOIN feature_strategy_segments fss ON fss.strategy_id = fs.id
          WHERE fss.segment_id IN (${segmentIdsByNameSql(names)}))`;
      };
      const { match, negated, names } = filter.segment;
      const sql = match === 'any' ? using(names) : names.map((name) => using([name])).join(' AND ');
      parts.push(negated ? `NOT (${sql})` : `(${sql})`);
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

  /**
   * Ties fall back to creation time, then name, so that pages never overlap. With favoritesFirst
   * and a signed-in user, that user's favorites come first, each part in this order.
   */
  private ordering(filter: FeatureSearchFilter, params: unknown[], userId?: number): string {
    if (filter.favoritesFirst && userId !== undefined) {
      params.push(userId);
      return `CASE WHEN ${isFavoriteSql('f.name')} THEN 0 ELSE 1 END, ${this.ordering(
        { ...filter, favoritesFirst: false },
        params,
      )}`;
    }
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
        // Ties in the same direction, so that one index serves both (see page()).
        return `f.created_at ${dir}, f.name ${dir}`;
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
