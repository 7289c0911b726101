import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config';
import { MIGRATIONS } from './migrations';

/**
 * TypeORM options for either database. The schema always comes from migrations, run at start,
 * never from entity synchronisation.
 */
export function buildDataSourceOptions(
  database: DatabaseConfig,
  entities: DataSourceOptions['entities'] = [],
): DataSourceOptions {
  const common = {
    entities,
    migrations: MIGRATIONS,
    migrationsRun: true,
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
    charset: 'utf8mb4_bin',
    supportBigNumbers: true,
    bigNumberStrings: false,
    // Fail fast while the database is down so requests answer 503 instead of hanging.
    connectTimeout: 5000,
    extra: { connectionLimit: database.poolSize, waitForConnections: true, queueLimit: 0 },
  };
}
