import { createFeature, envUrl } from './feature-fixtures';
import { galeraNodes, startReplicasOnTwoNodes, TwoReplicas } from './support/galera-replicas';
import type { TestApp } from './support/test-app';

/*
 * Two Flagkeeper replicas on two nodes of a MariaDB Galera cluster (issue 13, item 8;
 * docs/decisions-galera.md). Runs only with TEST_GALERA_URLS, the comma-separated server URLs of
 * the nodes (`npm run test:galera` sets it; jest.config.js leaves this file out otherwise).
 * The invariant races across the two nodes are in concurrency-invariants.e2e-spec.ts.
 */
describe('Galera: two replicas on two nodes', () => {
  let replicas: TwoReplicas;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    expect(galeraNodes.length).toBeGreaterThanOrEqual(2);
    // Both start at once on the empty database: GET_LOCK would be node-local here, so the
    // migrations are serialised by the lock row, and neither replica needs a retry.
    replicas = await startReplicasOnTwoNodes();
    ({ a, b } = replicas);
  });
  afterAll(() => replicas?.close());

  it('connects the replicas to different nodes', async () => {
    const port = async (t: TestApp) =>
      ((await t.dataSource.query('SELECT @@port AS port')) as Array<{ port: number }>)[0].port;
    expect(await port(a)).not.toBe(await port(b));
  });

  it('gives every table a primary key (Galera replicates rows by key)', async () => {
    const tables: Array<{ name: string }> = await a.dataSource.query(
      `SELECT t.TABLE_NAME AS name FROM information_schema.TABLES t
        WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE'
          AND NOT EXISTS (SELECT 1 FROM information_schema.TABLE_CONSTRAINTS c
            WHERE c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME
              AND c.CONSTRAINT_TYPE = 'PRIMARY KEY')`,
    );
    expect(tables).toEqual([]);
  });

  it('reads on one replica what the other wrote', async () => {
    await a.admin.post('/api/admin/projects', { id: 'from-a', name: 'From A' }).expect(201);
    const read = await b.admin.get('/api/admin/projects/from-a').expect(200);
    expect(read.body).toEqual(expect.objectContaining({ id: 'from-a', name: 'From A' }));

    await createFeature(b, 'from-b');
    await b.admin.post(`${envUrl('from-b', 'development')}/on`).expect(204);
    const feature = await a.admin.get('/api/admin/projects/default/features/from-b').expect(200);
    expect(feature.body.environments).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'development', enabled: true })]),
    );
  });

  // The project list's kept items (FeatureListModel): a change made through the other node
  // reaches this node with its stamp, so the item kept here is not served again.
  it('lists on one replica what the other changed after the first had kept the list', async () => {
    const list = '/api/admin/projects/default/features';
    await createFeature(a, 'kept-across');
    await a.admin.get(list).expect(200);
    await b.admin
      .patch('/api/admin/projects/default/features/kept-across', {
        description: 'changed on b',
      })
      .expect(200);
    const served = (await a.admin.get(list).expect(200)).body.features;
    expect(served.find((item: { name: string }) => item.name === 'kept-across')).toEqual(
      expect.objectContaining({ description: 'changed on b' }),
    );
  });

  describe('conflicting writes at once on both nodes never answer 500', () => {
    const statuses = (results: Array<{ status: number }>) => results.map((r) => r.status);

    it('the same role name created on both: one 201, the others 409', async () => {
      const body = { name: 'contested', permissions: [{ name: 'CREATE_FEATURE' }] };
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).admin.post('/api/admin/roles', body)),
      );
      expect(statuses(results).sort()).toEqual([201, ...Array(9).fill(409)]);
    });

    it('one feature switched on and off from both replicas', async () => {
      await createFeature(a, 'toggled');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).admin.post(
            `${envUrl('toggled', 'development')}/${i % 4 < 2 ? 'on' : 'off'}`,
          ),
        ),
      );
      expect(new Set(statuses(results))).toEqual(new Set([204]));
    });

    it('one project renamed from both replicas: every update answers, one name wins', async () => {
      await a.admin.post('/api/admin/projects', { id: 'renamed', name: 'Start' }).expect(201);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).admin.put('/api/admin/projects/renamed', { name: `Name ${i}` }),
        ),
      );
      expect(new Set(statuses(results))).toEqual(new Set([200]));
      const [onA, onB] = await Promise.all(
        [a, b].map((t) => t.admin.get('/api/admin/projects/renamed').expect(200)),
      );
      expect(onA.body.name).toMatch(/^Name \d$/);
      expect(onB.body.name).toBe(onA.body.name);
    });
  });
});
