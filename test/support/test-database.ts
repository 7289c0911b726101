import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, RowDataPacket } from 'mysql2/promise';
import { createDatabaseSql } from '../../src/database/sql-dialect';

/** Which database the e2e suite runs on: SQLite unless TEST_DATABASE_URL names a MySQL server. */
export function testDatabaseKind(): 'sqlite' | 'mysql' {
  return process.env.TEST_DATABASE_URL ? 'mysql' : 'sqlite';
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: a temporary SQLite file, or a new schema on the
 * MySQL server of TEST_DATABASE_URL (dropped afterwards).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'flagkeeper-test-'));
    return {
      url: `sqlite:${join(dir, 'test.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `fk_test_${randomBytes(6).toString('hex')}`;
  const server = new URL(serverUrl.replace(/^mariadb:/, 'mysql:'));
  const admin = await createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username),
    password: decodeURIComponent(server.password),
  });
  const [[serverInfo]] = await admin.query<Array<{ version: string } & RowDataPacket>>(
    'SELECT VERSION() AS version',
  );
  await admin.query(createDatabaseSql(name, serverInfo.version));
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const conn = await createConnection({
        host: server.hostname,
        port: Number(server.port || 3306),
        user: decodeURIComponent(server.username),
        password: decodeURIComponent(server.password),
      });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}
