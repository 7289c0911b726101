import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect, dialectOf } from '../database/sql-dialect';
import { placeholders, sqlTimestamp, toDate, toNumber } from '../database/sql-values';
import type { FeatureNamesSql } from '../events/events.store';

export interface UserRow {
  id: number;
  name: string | null;
  username: string | null;
  email: string | null;
  imageUrl: string | null;
  rootRoleId: number;
  passwordHash: string | null;
  createdAt: Date;
  seenAt: Date | null;
}

export type UserFields = Omit<UserRow, 'id' | 'createdAt' | 'seenAt' | 'passwordHash'>;

interface RawUser {
  id: unknown;
  name: string | null;
  username: string | null;
  email: string | null;
  image_url: string | null;
  root_role_id: unknown;
  password_hash: string | null;
  created_at: unknown;
  seen_at: unknown;
}

const USER_COLUMNS =
  'id, name, username, email, image_url, root_role_id, password_hash, created_at, seen_at';

function toUser(row: RawUser): UserRow {
  return {
    id: toNumber(row.id),
    name: row.name ?? null,
    username: row.username ?? null,
    email: row.email ?? null,
    imageUrl: row.image_url ?? null,
    rootRoleId: toNumber(row.root_role_id),
    passwordHash: row.password_hash ?? null,
    createdAt: toDate(row.created_at) as Date,
    seenAt: toDate(row.seen_at),
  };
}

/**
 * The users as other owners may join them (id, display name, image), for a statement that must
 * read users beside its own table in one go (the people of a feature, events.store.ts).
 */
export const USER_CARDS_SQL = `SELECT id, COALESCE(name, username, email) AS display_name, image_url
  FROM users`;

/**
 * Whether the user bound as the one parameter marked the feature in `featureColumn` as a favorite,
 * for other owners' orderings (the feature search's favoritesFirst).
 */
export function isFavoriteSql(featureColumn: string): string {
  return `EXISTS (SELECT 1 FROM favorite_features ff
    WHERE ff.user_id = ? AND ff.feature_name = ${featureColumn})`;
}

/** `users`, `user_sessions`, `login_attempts` and `favorite_features`. */
@Injectable()
export class UsersStore {
  private readonly dialect: Dialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
  }

  private db(tx?: EntityManager): EntityManager | DataSource {
    return tx ?? this.dataSource;
  }

  async list(): Promise<UserRow[]> {
    const rows: RawUser[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users ORDER BY id`,
    );
    return rows.map(toUser);
  }

  async byId(id: number, tx?: EntityManager): Promise<UserRow | null> {
    const [row]: RawUser[] = await this.db(tx).query(
      `SELECT ${USER_COLUMNS} FROM users WHERE id = ?`,
      [id],
    );
    return row ? toUser(row) : null;
  }

  /** A user signs in with their username or their email. */
  async byLogin(login: string): Promise<UserRow | null> {
    const [row]: RawUser[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users WHERE username = ? OR email = ? ORDER BY id LIMIT 1`,
      [login, login],
    );
    return row ? toUser(row) : null;
  }

  async byIds(ids: number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    const rows: RawUser[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users WHERE id IN (${placeholders(ids)})`,
      ids,
    );
    return rows.map(toUser);
  }

  async count(): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT COUNT(*) AS total FROM users`);
    return toNumber(row?.total);
  }

  async insert(
    tx: EntityManager,
    fields: UserFields,
    passwordHash: string | null,
  ): Promise<number> {
    await tx.query(
      `INSERT INTO users (name, username, email, image_url, root_role_id, password_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        fields.name,
        fields.username,
        fields.email,
        fields.imageUrl,
        fields.rootRoleId,
        passwordHash,
        sqlTimestamp(new Date()),
      ],
    );
    // Read back by the unique login column in the same transaction: portable across both drivers.
    const [row] = await tx.query(
      `SELECT id FROM users WHERE ${fields.username !== null ? 'username' : 'email'} = ?`,
      [fields.username ?? fields.email],
    );
    return toNumber(row.id);
  }

  async update(tx: EntityManager, id: number, fields: Partial<UserFields>): Promise<void> {
    const columns: Record<keyof UserFields, string> = {
      name: 'name',
      username: 'username',
      email: 'email',
      imageUrl: 'image_url',
      rootRoleId: 'root_role_id',
    };
    const entries = (Object.keys(columns) as Array<keyof UserFields>).filter(
      (key) => fields[key] !== undefined,
    );
    if (entries.length === 0) return;
    await tx.query(
      `UPDATE users SET ${entries.map((key) => `${columns[key]} = ?`).join(', ')} WHERE id = ?`,
      [...entries.map((key) => fields[key]), id],
    );
  }

  async setPassword(tx: EntityManager, id: number, passwordHash: string): Promise<void> {
    await tx.query(`UPDATE users SET password_hash = ? WHERE id = ?`, [passwordHash, id]);
  }

  /** Deletes the user; the foreign keys take their sessions and favourites with them. */
  async remove(tx: EntityManager, id: number): Promise<void> {
    await tx.query(`DELETE FROM users WHERE id = ?`, [id]);
  }

  async markSeen(id: number, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE users SET seen_at = ? WHERE id = ?`, [
      sqlTimestamp(at),
      id,
    ]);
  }

  async insertSession(
    tx: EntityManager,
    idHash: string,
    userId: number,
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO user_sessions (id_hash, user_id, created_at, last_seen_at, expires_at)
       VALUES (?, ?, ?, ?, ?)`,
      [idHash, userId, sqlTimestamp(now), sqlTimestamp(now), sqlTimestamp(expiresAt)],
    );
  }

  /** The live session of this hash: not past its absolute end, and used since `idleSince`. */
  async liveSession(
    idHash: string,
    now: Date,
    idleSince: Date,
  ): Promise<{ userId: number; lastSeenAt: Date } | null> {
    const [row]: Array<{ user_id: unknown; last_seen_at: unknown }> = await this.dataSource.query(
      `SELECT user_id, last_seen_at FROM user_sessions
        WHERE id_hash = ? AND expires_at > ? AND last_seen_at > ?`,
      [idHash, sqlTimestamp(now), sqlTimestamp(idleSince)],
    );
    return row
      ? { userId: toNumber(row.user_id), lastSeenAt: toDate(row.last_seen_at) as Date }
      : null;
  }

  async touchSession(idHash: string, now: Date): Promise<void> {
    await this.dataSource.query(`UPDATE user_sessions SET last_seen_at = ? WHERE id_hash = ?`, [
      sqlTimestamp(now),
      idHash,
    ]);
  }

  async removeSession(idHash: string, tx?: EntityManager): Promise<void> {
    await this.db(tx).query(`DELETE FROM user_sessions WHERE id_hash = ?`, [idHash]);
  }

  /** Failed sign-ins per key in the current window (a key per username, one per address). */
  async failures(keys: string[], windowStart: Date): Promise<number> {
    const [row] = await this.dataSource.query(
      `SELECT MAX(failures) AS most FROM login_attempts
        WHERE attempt_key IN (${placeholders(keys)}) AND window_start > ?`,
      [...keys, sqlTimestamp(windowStart)],
    );
    return toNumber(row?.most);
  }

  /** Counts a failure for each key; a key whose window ended starts a new one. */
  async addFailure(keys: string[], now: Date, windowStart: Date): Promise<void> {
    const rows = keys.map(() => '(?, ?, 1)').join(', ');
    const params = keys.flatMap((key) => [key, sqlTimestamp(now)]);
    const stale = sqlTimestamp(windowStart);
    await this.dataSource.query(
      this.dialect !== 'sqlite'
        ? `INSERT INTO login_attempts (attempt_key, window_start, failures) VALUES ${rows}
           ON DUPLICATE KEY UPDATE
             failures = IF(window_start > ?, failures + 1, 1),
             window_start = IF(window_start > ?, window_start, VALUES(window_start))`
        : `INSERT INTO login_attempts (attempt_key, window_start, failures) VALUES ${rows}
           ON CONFLICT (attempt_key) DO UPDATE SET
             failures = CASE WHEN window_start > ? THEN failures + 1 ELSE 1 END,
             window_start = CASE WHEN window_start > ? THEN window_start ELSE excluded.window_start END`,
      [...params, stale, stale],
    );
  }

  async clearFailures(key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM login_attempts WHERE attempt_key = ?`, [key]);
  }

  async addFavorite(userId: number, featureName: string, tx?: EntityManager): Promise<void> {
    await this.db(tx).query(
      this.dialect !== 'sqlite'
        ? `INSERT IGNORE INTO favorite_features (user_id, feature_name) VALUES (?, ?)`
        : `INSERT OR IGNORE INTO favorite_features (user_id, feature_name) VALUES (?, ?)`,
      [userId, featureName],
    );
  }

  async removeFavorite(userId: number, featureName: string, tx?: EntityManager): Promise<void> {
    await this.db(tx).query(
      `DELETE FROM favorite_features WHERE user_id = ? AND feature_name = ?`,
      [userId, featureName],
    );
  }

  /**
   * Which of the features the user marked as favorites; the features as names, or as a
   * sub-select of names with its parameters (a whole project's list binds one parameter).
   */
  async favorites(userId: number, featureNames: string[] | FeatureNamesSql): Promise<Set<string>> {
    if (Array.isArray(featureNames) && featureNames.length === 0) return new Set();
    const { list, params } = Array.isArray(featureNames)
      ? { list: placeholders(featureNames), params: featureNames }
      : featureNames;
    const rows: Array<{ feature_name: string }> = await this.dataSource.query(
      `SELECT feature_name FROM favorite_features WHERE user_id = ? AND feature_name IN (${list})`,
      [userId, ...params],
    );
    return new Set(rows.map((row) => row.feature_name));
  }
}
