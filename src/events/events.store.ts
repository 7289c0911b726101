import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  parseJson,
  placeholders,
  sqlTimestamp,
  toIso,
  toNullableNumber,
  toNumber,
} from '../database/sql-values';
import { USER_CARDS_SQL } from '../users/users.store';
import type { EventDto } from './dto/event.dto';

/** A user as a feature shows them (the seed's `createdBy` and `collaborators`). */
export interface PersonCard {
  id: number;
  name: string;
  imageUrl: string | null;
}

/** Feature names as SQL for `IN (...)`: a sub-select (from the features' owner) and its parameters. */
export interface FeatureNamesSql {
  list: string;
  params: unknown[];
}

/** Who created a feature (null: a token, an import, or before events) and who changed it. */
export interface FeaturePeople {
  createdBy: PersonCard | null;
  collaborators: PersonCard[];
}

/** An event to append; `createdAt` is the time of the write. */
export interface NewEvent {
  type: string;
  createdBy: string;
  createdByUserId: number | null;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: unknown;
  preData?: unknown;
}

/** Filters of the event search: each one optional, all of them combined; a list is "any of". */
export interface EventFilter {
  types?: string[];
  projects?: string[];
  features?: string[];
  environments?: string[];
  /** The recorded creator names (a user's name, or a token's). */
  createdByNames?: string[];
  createdByUserIds?: number[];
  /** At or after. */
  from?: Date;
  /** At or before. */
  to?: Date;
  /** Strictly before. */
  before?: Date;
}

interface EventRow {
  id: unknown;
  type: string;
  created_at: unknown;
  created_by: string;
  created_by_user_id: unknown;
  project: string | null;
  environment: string | null;
  feature_name: string | null;
  data: unknown;
  pre_data: unknown;
}

const COLUMNS =
  'id, type, created_at, created_by, created_by_user_id, project, environment, feature_name, data, pre_data';

function toEventDto(row: EventRow): EventDto {
  return {
    id: toNumber(row.id),
    type: row.type,
    createdAt: toIso(row.created_at) as string,
    createdBy: row.created_by,
    createdByUserId: toNullableNumber(row.created_by_user_id),
    project: row.project ?? null,
    environment: row.environment ?? null,
    featureName: row.feature_name ?? null,
    data: parseJson<unknown>(row.data, null),
    preData: parseJson<unknown>(row.pre_data, null),
  };
}

/** The `events` table: append-only. Nothing here updates or deletes an event. */
@Injectable()
export class EventsStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends events in the caller's transaction: one INSERT whatever their number. */
  async append(tx: EntityManager, events: NewEvent[], at: Date = new Date()): Promise<void> {
    if (events.length === 0) return;
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    await tx.query(
      `INSERT INTO events (type, created_at, created_by, created_by_user_id, project, environment,
         feature_name, data, pre_data)
       VALUES ${events.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      events.flatMap((event) => [
        event.type,
        sqlTimestamp(at),
        event.createdBy,
        event.createdByUserId,
        event.project ?? null,
        event.environment ?? null,
        event.featureName ?? null,
        json(event.data),
        json(event.preData),
      ]),
    );
  }

  /**
   * One page, newest first, and the total: two statements whatever the page size or the number
   * of values in a filter. Type, project, feature and creator name are indexed with the id, so a
   * page filtered by them walks its index from the end.
   */
  async search(
    filter: EventFilter,
    offset: number,
    limit: number,
  ): Promise<{ events: EventDto[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const anyOf = (column: string, values: readonly unknown[] | undefined) => {
      if (values === undefined) return;
      where.push(values.length === 1 ? `${column} = ?` : `${column} IN (${placeholders(values)})`);
      params.push(...values);
    };
    anyOf('type', filter.types);
    anyOf('project', filter.projects);
    anyOf('feature_name', filter.features);
    anyOf('environment', filter.environments);
    anyOf('created_by', filter.createdByNames);
    anyOf('created_by_user_id', filter.createdByUserIds);
    if (filter.from) {
      where.push('created_at >= ?');
      params.push(sqlTimestamp(filter.from));
    }
    if (filter.to) {
      where.push('created_at <= ?');
      params.push(sqlTimestamp(filter.to));
    }
    if (filter.before) {
      where.push('created_at < ?');
      params.push(sqlTimestamp(filter.before));
    }
    const condition = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM events${condition} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [count]: Array<{ total: unknown }> = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM events${condition}`,
      params,
    );
    return { events: rows.map(toEventDto), total: toNumber(count?.total) };
  }

  /** The users who wrote at least one event, by their current name: one statement. */
  async creators(): Promise<Array<{ id: number; name: string }>> {
    const rows: Array<{ id: unknown; display_name: string | null }> = await this.dataSource.query(
      `SELECT u.id, u.display_name
         FROM (SELECT DISTINCT created_by_user_id FROM events
                WHERE created_by_user_id IS NOT NULL) c
         JOIN (${USER_CARDS_SQL}) u ON u.id = c.created_by_user_id
        ORDER BY u.display_name, u.id`,
    );
    return rows.map((row) => ({ id: toNumber(row.id), name: row.display_name ?? '' }));
  }

  /**
   * The users who changed each feature, most recent first (the seed's `collaborators`): one
   * statement for any number of features.
   */
  async collaborators(featureNames: string[]): Promise<Map<string, number[]>> {
    const result = new Map<string, number[]>();
    if (featureNames.length === 0) return result;
    const rows: Array<{ feature_name: string; user_id: unknown }> = await this.dataSource.query(
      `SELECT feature_name, created_by_user_id AS user_id, MAX(id) AS last_id FROM events
        WHERE created_by_user_id IS NOT NULL
          AND feature_name IN (${featureNames.map(() => '?').join(', ')})
        GROUP BY feature_name, created_by_user_id
        ORDER BY feature_name, last_id DESC`,
      featureNames,
    );
    for (const row of rows) {
      const list = result.get(row.feature_name) ?? [];
      list.push(toNumber(row.user_id));
      result.set(row.feature_name, list);
    }
    return result;
  }

  /**
   * Creator and collaborators of each feature, users joined: one statement for any number of
   * features. Only events since the feature's latest `feature-created` count, so a feature deleted
   * and created again under the same name starts with new people. The creator is the user of that
   * event (none when a token created it); collaborators are every user who wrote an event about
   * the feature since, most recent first. Marking a favorite changes nobody's feature, so it does
   * not make a collaborator.
   */
  async people(featureNames: string[] | FeatureNamesSql): Promise<Map<string, FeaturePeople>> {
    const result = new Map<string, FeaturePeople>();
    if (Array.isArray(featureNames) && featureNames.length === 0) return result;
    // A sub-select of names (a whole project's list) binds one parameter instead of thousands.
    const { list: names, params } = Array.isArray(featureNames)
      ? { list: featureNames.map(() => '?').join(', '), params: featureNames }
      : featureNames;
    const rows: Array<{
      feature_name: string;
      user_id: unknown;
      is_creator: unknown;
      display_name: string | null;
      image_url: string | null;
    }> = await this.dataSource.query(
      // `k` reads the index (feature_name, created_by_user_id) alone: a feature that only tokens
      // wrote (the usual bulk case) costs one index probe and no event rows. Only features that
      // have a user are read further. MariaDB does not pick that index when the events are read
      // directly (it takes (feature_name, id) and reads every event), hence the derived table.
      `SELECT p.feature_name, p.user_id, p.is_creator, u.display_name, u.image_url
         FROM (SELECT e.feature_name, e.created_by_user_id AS user_id, MAX(e.id) AS last_id,
                      MAX(CASE WHEN e.id = s.start_id THEN 1 ELSE 0 END) AS is_creator
                 FROM (SELECT c.feature_name, c.created_by_user_id AS user_id FROM events c
                        WHERE c.feature_name IN (${names}) AND c.created_by_user_id IS NOT NULL
                        GROUP BY c.feature_name, c.created_by_user_id) k
                 JOIN events e
                   ON e.feature_name = k.feature_name AND e.created_by_user_id = k.user_id
                 LEFT JOIN (SELECT feature_name, MAX(id) AS start_id FROM events
                             WHERE type = 'feature-created' AND feature_name IN (${names})
                             GROUP BY feature_name) s ON s.feature_name = e.feature_name
                WHERE e.id >= COALESCE(s.start_id, 0)
                  AND e.type NOT IN ('feature-favorited', 'feature-unfavorited')
                GROUP BY e.feature_name, e.created_by_user_id) p
         JOIN (${USER_CARDS_SQL}) u ON u.id = p.user_id
        ORDER BY p.feature_name, p.last_id DESC`,
      [...params, ...params],
    );
    for (const row of rows) {
      const entry = result.get(row.feature_name) ?? { createdBy: null, collaborators: [] };
      const card = {
        id: toNumber(row.user_id),
        name: row.display_name ?? '',
        imageUrl: row.image_url ?? null,
      };
      entry.collaborators.push(card);
      if (toNumber(row.is_creator) === 1) entry.createdBy = card;
      result.set(row.feature_name, entry);
    }
    return result;
  }
}
