import type { EntityManager } from 'typeorm';
import { insertValues } from './sql-dialect';

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
