import { createFeature, createStrategy, envUrl } from './feature-fixtures';
import { serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const CLONE = (source: string) => `/api/admin/environments/${source}/clone`;
const ENV = (name: string) => `/api/admin/environments/${name}`;

/**
 * D7 of issue 13: clones racing each other, a delete of their source and writes to it deadlocked
 * on MariaDB and answered 500. Now the clone locks its source and transient conflicts are
 * retried: every answer is 200, 404 or 409, and what the answers say is what is stored.
 */
describe('environment clones under concurrency', () => {
  let t: TestApp;

  /** An environment linked to the default project, with a strategy and an environment-scoped role permission. */
  async function sourceEnvironment(name: string): Promise<void> {
    await t.admin.post('/api/admin/environments', { name, type: 'development' }).expect(201);
    await t.admin
      .post('/api/admin/projects/default/environments', { environment: name })
      .expect((res) => expect([200, 201, 204]).toContain(res.status));
    await createStrategy(t, 'clone-f', name, { name: 'default' });
    await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE_STRATEGY', environment: name }]);
  }

  async function environmentNames(): Promise<string[]> {
    const rows: Array<{ name: string }> = await t.dataSource.query(
      `SELECT name FROM environments ORDER BY name`,
    );
    return rows.map((row) => row.name);
  }

  beforeAll(async () => {
    t = await startTestApp();
    await createFeature(t, 'clone-f');
    await sourceEnvironment('src');
  });
  afterAll(() => t.close());

  it('clones one environment five times at once, with its environment-scoped permissions: all 200', async () => {
    const names = Array.from({ length: 5 }, (_, i) => `copy-${i}`);
    const answers = await Promise.all(
      names.map((name) => t.admin.post(CLONE('src'), { name, type: 'development' })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(5).fill(200));
    const permissions: Array<{ environment_name: string }> = await t.dataSource.query(
      `SELECT environment_name FROM role_permissions
        WHERE environment_name LIKE 'copy-%' ORDER BY environment_name`,
    );
    expect(permissions.map((row) => row.environment_name)).toEqual(names);
  });

  it('clones to one name five times at once: one 200, four 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.admin.post(CLONE('src'), { name: 'same-copy', type: 'development' }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it('clones while the source is deleted: the clone is 200 or 404, the delete 204, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const source = `doomed-${round}`;
      await sourceEnvironment(source);
      const [a, b, remove] = await Promise.all([
        t.admin.post(CLONE(source), { name: `${source}-a`, type: 'development' }),
        t.admin.post(CLONE(source), { name: `${source}-b`, type: 'development' }),
        t.admin.delete(ENV(source)),
      ]);
      expect(remove.status).toBe(204);
      const names = await environmentNames();
      expect(names).not.toContain(source);
      for (const [res, name] of [
        [a, `${source}-a`],
        [b, `${source}-b`],
      ] as const) {
        expect([200, 404]).toContain(res.status);
        // A clone that answered 200 exists; one that answered 404 left nothing behind.
        expect(names.includes(name)).toBe(res.status === 200);
      }
    }
  });

  it('writes to the source while it is cloned: every write and clone succeeds', async () => {
    const answers = await Promise.all([
      t.admin.post(CLONE('src'), { name: 'busy-a', type: 'development' }),
      ...Array.from({ length: 4 }, () =>
        t.admin.post(`${envUrl('clone-f', 'src')}/strategies`, { name: 'default' }),
      ),
      t.admin.post(CLONE('src'), { name: 'busy-b', type: 'development' }),
      t.admin.post(`${envUrl('clone-f', 'src')}/on`),
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 201, 201, 201, 201, 200, 204]);
  });
});
