import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
import { CONNECT_TIMEOUT_MS } from './bounded-waits';
import { MIGRATIONS } from './migrations';

/**
 * TypeORM options for either database. The schema always comes from migrations, never from entity
 * synchronisation. The app runs them at start under a database lock (migration-lock.store.ts),
 * so TypeORM's own migrationsRun, which takes no lock, stays off.
 */
export function buildDataSourceOptions(
  database: DatabaseConfig,
  entities: DataSourceOptions['entities'] = [],
): DataSourceOptions {
  const common = {
    entities,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (database.type === 'better-sqlite3') {
    if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.path,
      // WAL lets readers proceed while a write transaction is open, and survives crashes well.
      enableWAL: database.path !== ':memory:',
      timeout: 10000,
    };
  }
  return {
    ...common,
    type: database.type,
    url: database.url,
    poolSize: database.poolSize,
    // Store and read every timestamp as UTC, whatever the server's time zone.
    timezone: 'Z',
    // The connection's character set: utf8mb4. Its collation is not the columns' no-pad one on
    // purpose: the handshake carries a one-byte collation id, and the no-pad ids (1070 on MariaDB,
    // 309 on MySQL) do not fit (mysql2 knows no utf8mb4_nopad_bin at all). It does not matter for
    // data: a parameter is coercible, so compared with a column it takes the column's collation.
    charset: 'utf8mb4_bin',
    supportBigNumbers: true,
    bigNumberStrings: false,
    // Fail fast while the database is down or stalled so requests answer 503 instead of hanging;
    // pool acquire and statement timeouts are added once migrations have run (bounded-waits.ts).
    connectTimeout: CONNECT_TIMEOUT_MS,
    extra: { connectionLimit: database.poolSize, waitForConnections: true, queueLimit: 0 },
  };
}
