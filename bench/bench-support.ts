import type { RowDataPacket } from 'mysql2/promise';
import { createDatabaseSql } from '../src/database/sql-dialect';

/** Pieces every benchmark of the second wave shares: the figures and a fresh MySQL database. */

/** The p-th percentile (nearest rank) of the values. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Drops and recreates the database named in the URL (or `fallbackName` when it names none), with
 * the no-pad binary collation of the migrations; returns the URL unchanged.
 */
export async function freshMysqlDatabase(serverUrl: string, fallbackName: string): Promise<string> {
  const { createConnection } = await import('mysql2/promise');
  const url = new URL(serverUrl.replace(/^mariadb:/, 'mysql:'));
  const database = decodeURIComponent(url.pathname.slice(1)) || fallbackName;
  const admin = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
  await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  const [[server]] = await admin.query<Array<{ version: string } & RowDataPacket>>(
    'SELECT VERSION() AS version',
  );
  await admin.query(createDatabaseSql(database, server.version));
  await admin.end();
  return serverUrl;
}
