import type { EntityManager } from 'typeorm';
import {
  createDatabaseSql,
  dialectOfServerVersion,
  insertValues,
  jsonRecords,
  jsonStrings,
} from './sql-dialect';

/** Collects the statements insertValues sends (the SQL text is what is under test here). */
function recorder(): { tx: EntityManager; statements: Array<{ sql: string; params: unknown }> } {
  const statements: Array<{ sql: string; params: unknown }> = [];
  const tx = {
    query: (sql: string, params?: unknown) => {
      statements.push({ sql, params });
      return Promise.resolve([]);
    },
  } as unknown as EntityManager;
  return { tx, statements };
}

describe('insertValues', () => {
  const head = 'INSERT INTO t (a, b, c)';

  it('sends one statement when the rows fit, with the values escaped and no placeholders', async () => {
    const { tx, statements } = recorder();
    await insertValues(
      tx,
      head,
      [
        ["it's", 1, null],
        ['back\\slash ? "q"', 2, 'x'],
      ],
      'ON DUPLICATE KEY UPDATE b = VALUES(b)',
    );
    expect(statements).toEqual([
      {
        sql: `INSERT INTO t (a, b, c) VALUES ('it\\'s',1,NULL),('back\\\\slash ? \\"q\\"',2,'x') ON DUPLICATE KEY UPDATE b = VALUES(b)`,
        params: undefined,
      },
    ]);
  });

  it('splits by bytes, never over the limit, keeping every row once and in order', async () => {
    const { tx, statements } = recorder();
    const rows = Array.from({ length: 1000 }, (_, i) => [`row-${i}-é`, i, 'z'.repeat(i % 50)]);
    await insertValues(tx, head, rows, '', 4096);
    expect(statements.length).toBeGreaterThan(5);
    for (const { sql } of statements) expect(Buffer.byteLength(sql)).toBeLessThanOrEqual(4096);
    const sent = statements.flatMap(({ sql }) =>
      [...sql.matchAll(/\('row-(\d+)-é'/g)].map((m) => Number(m[1])),
    );
    expect(sent).toEqual(rows.map((_, i) => i));
  });

  it('sends nothing for no rows', async () => {
    const { tx, statements } = recorder();
    await insertValues(tx, head, []);
    expect(statements).toEqual([]);
  });
});

// Only MariaDB runs here; the MySQL 8 spelling is pinned by these tests (issue 13, D11).
describe('the no-pad collation of each server flavour', () => {
  it('tells MariaDB from MySQL by SELECT VERSION()', () => {
    expect(dialectOfServerVersion('10.11.19-MariaDB-0+deb12u1')).toBe('mariadb');
    expect(dialectOfServerVersion('11.4.2-MariaDB-log')).toBe('mariadb');
    expect(dialectOfServerVersion('8.4.3')).toBe('mysql8');
    expect(dialectOfServerVersion('8.0.36-standard')).toBe('mysql8');
  });

  it('names the no-pad binary collation, never utf8mb4_bin, in run-time SQL', () => {
    expect(jsonStrings('mariadb')).toContain('COLLATE utf8mb4_nopad_bin PATH');
    expect(jsonStrings('mysql8')).toContain('COLLATE utf8mb4_0900_bin PATH');
    const records = jsonRecords('mysql8', { name: 'name', text: 'text', n: 'int' });
    expect(records.match(/COLLATE utf8mb4_0900_bin/g)).toHaveLength(2);
    expect(jsonStrings('sqlite')).not.toContain('COLLATE');
    for (const sql of [jsonStrings('mariadb'), jsonRecords('mariadb', { a: 'name', b: 'text' })]) {
      expect(sql).not.toContain('utf8mb4_bin');
    }
  });

  it('creates test and benchmark databases with it', () => {
    expect(createDatabaseSql('fk_x', '10.11.6-MariaDB')).toBe(
      'CREATE DATABASE `fk_x` CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin',
    );
    expect(createDatabaseSql('fk_x', '8.4.3')).toBe(
      'CREATE DATABASE `fk_x` CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin',
    );
  });
});
