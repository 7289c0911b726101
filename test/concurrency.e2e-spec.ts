import { sqlTimestamp } from '../src/database/sql-values';
import { startTestApp, TestApp } from './support/test-app';

describe('concurrent multi-row writes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('keep each transaction whole when many run at once', async () => {
    const permissions = [
      { name: 'CREATE_FEATURE' },
      { name: 'UPDATE_FEATURE' },
      { name: 'DELETE_FEATURE' },
    ];
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        t.admin.post('/api/admin/roles', { name: `role-${i}`, permissions }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(201));
    const rows: Array<{ n: unknown }> = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM role_permissions rp JOIN roles r ON r.id = rp.role_id WHERE r.name LIKE 'role-%'`,
    );
    expect(Number(rows[0].n)).toBe(75);
  });

  it('roll back one transaction without touching a concurrent one', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const insert = (m: { query(sql: string, p: unknown[]): Promise<unknown> }, name: string) =>
      m.query(`INSERT INTO tag_types (name, description, created_at) VALUES (?, NULL, ?)`, [
        name,
        sqlTimestamp(new Date()),
      ]);
    // The first transaction commits while the second, which started later and waits on other
    // work, is still open; the second then fails and must roll back only its own rows.
    const first = t.dataSource.transaction(async (m) => {
      await insert(m, 'first-a');
      await sleep(20);
      await insert(m, 'first-b');
    });
    await sleep(5);
    const second = t.dataSource.transaction(async (m) => {
      await insert(m, 'second-a');
      await sleep(60);
      throw new Error('second fails');
    });
    await expect(first).resolves.toBeUndefined();
    await expect(second).rejects.toThrow('second fails');
    const rows: Array<{ name: string }> = await t.dataSource.query(
      `SELECT name FROM tag_types WHERE name IN ('first-a', 'first-b', 'second-a') ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(['first-a', 'first-b']);
  });
});
