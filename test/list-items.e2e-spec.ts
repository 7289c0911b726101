import {
  createFeature,
  createStrategy,
  envUrl,
  featureUrl,
  insertProjectDirectly,
} from './feature-fixtures';
import { IMPORT } from './import-fixtures';
import { startTestApp, TestApp } from './support/test-app';

// The project list keeps each item's text between lists (FeatureListModel, "Kept items"). Every
// kind of write must leave no kept text behind that is older than what it shows: after each write
// below, the list a client gets equals the list written from scratch, byte for byte.
describe('kept list items', () => {
  const P = 'kept';
  const LIST = `/api/admin/projects/${P}/features`;
  let t: TestApp;
  let strategyOfB = '';

  const url = (name: string) => featureUrl(name, P);
  const env = (name: string, environment: string) => envUrl(name, environment, P);

  /** The list as served now, then as written with no kept text at all (which keeps it anew). */
  async function servedAndFromScratch(): Promise<{ served: string; fromScratch: string }> {
    const served = (await t.admin.get(LIST).expect(200)).text;
    await t.dataSource.query('DELETE FROM feature_list_items');
    const fromScratch = (await t.admin.get(LIST).expect(200)).text;
    return { served, fromScratch };
  }

  beforeAll(async () => {
    t = await startTestApp();
    await insertProjectDirectly(t, P, ['development', 'production']);
    for (const name of ['a', 'b', 'c', 'p']) await createFeature(t, name, {}, P);
    await createStrategy(t, 'a', 'development', { name: 'default' }, P);
    await t.admin.post('/api/admin/features/a/tags', { type: 'simple', value: 'one' }).expect(201);
    await t.admin.post(`${url('c')}/dependencies`, { feature: 'p' }).expect(201);
  });
  afterAll(() => t.close());

  it('keeps every listed item, and a list with all of them kept writes nothing', async () => {
    await t.admin.get(LIST).expect(200);
    const [{ kept }] = await t.dataSource.query('SELECT COUNT(*) AS kept FROM feature_list_items');
    expect(Number(kept)).toBe(4);
    const again = await t.sql.measure(() => t.admin.get(LIST).expect(200));
    expect(again.statements.filter((sql) => /feature_list_items \(/.test(sql))).toEqual([]);
  });

  const writes: Array<[string, () => Promise<unknown>]> = [
    ['PATCH of a description', () => t.admin.patch(url('a'), { description: 'new' }).expect(200)],
    ['PATCH of stale', () => t.admin.patch(url('b'), { stale: true }).expect(200)],
    ['switching on', () => t.admin.post(`${env('a', 'development')}/on`).expect(204)],
    [
      'variants',
      () =>
        t.admin
          .put(`${env('b', 'production')}/variants`, [
            { name: 'v', weight: 1000, weightType: 'variable', stickiness: 'default' },
          ])
          .expect(200),
    ],
    [
      'a strategy added',
      async () => {
        strategyOfB = (await createStrategy(t, 'b', 'development', { name: 'default' }, P)).id;
      },
    ],
    [
      'a strategy disabled',
      () =>
        t.admin
          .put(`${env('b', 'development')}/strategies/${strategyOfB}`, {
            name: 'default',
            disabled: true,
          })
          .expect(200),
    ],
    [
      'a strategy deleted',
      () => t.admin.delete(`${env('b', 'development')}/strategies/${strategyOfB}`).expect(204),
    ],
    [
      'a tag added',
      () => t.admin.post('/api/admin/features/b/tags', { type: 'simple', value: 'xx' }).expect(201),
    ],
    [
      'tags replaced',
      () =>
        t.admin
          .put('/api/admin/features/b/tags', {
            addedTags: [{ type: 'simple', value: 'yy' }],
            removedTags: [{ type: 'simple', value: 'xx' }],
          })
          .expect(200),
    ],
    ['a tag removed', () => t.admin.delete('/api/admin/features/a/tags/simple/one').expect(204)],
    [
      'a parent added (the parent lists its children)',
      () => t.admin.post(`${url('b')}/dependencies`, { feature: 'p' }).expect(201),
    ],
    ['a parent removed', () => t.admin.delete(`${url('b')}/dependencies/p`).expect(204)],
    ['all parents removed', () => t.admin.delete(`${url('c')}/dependencies`).expect(204)],
    [
      'a lifecycle completed',
      () => t.admin.post(`${url('a')}/lifecycle/complete`, { status: 'kept' }).expect(200),
    ],
    ['an archive', () => t.admin.delete(url('b')).expect(204)],
    ['a revive', () => t.admin.post('/api/admin/archive/revive/b').expect(200)],
    [
      'a child archived, then deleted for good',
      async () => {
        await t.admin.post(`${url('c')}/dependencies`, { feature: 'p' }).expect(201);
        await t.admin.get(LIST).expect(200);
        await t.admin.delete(url('c')).expect(204);
        await t.admin.get(LIST).expect(200);
        await t.admin.delete('/api/admin/archive/c').expect(204);
      },
    ],
    ['a feature created', () => createFeature(t, 'd', {}, P)],
    [
      'environments reordered',
      () => t.admin.put('/api/admin/environments/production', { sortOrder: -5 }).expect(200),
    ],
    [
      'an environment unlinked from the project',
      () => t.admin.delete(`/api/admin/projects/${P}/environments/production`).expect(204),
    ],
    [
      'an environment linked to the project',
      () =>
        t.admin
          .post(`/api/admin/projects/${P}/environments`, { environment: 'production' })
          .expect(201),
    ],
    [
      'an environment cloned into the project',
      () =>
        t.admin
          .post('/api/admin/environments/development/clone', {
            name: 'kept-clone',
            type: 'test',
            projects: [P],
          })
          .expect(200),
    ],
    [
      'an import',
      () =>
        t.admin
          .post(IMPORT, {
            project: P,
            environment: 'development',
            data: {
              features: [{ name: 'a', project: P }],
              featureStrategies: [],
              tagTypes: [],
              featureEnvironments: [
                { featureName: 'a', environment: 'development', enabled: false },
              ],
            },
          })
          .expect(204),
    ],
    [
      'an environment deleted',
      () => t.admin.delete('/api/admin/environments/kept-clone').expect(204),
    ],
  ];

  it.each(writes)('serves the list as written from scratch after %s', async (_what, write) => {
    const before = (await t.admin.get(LIST).expect(200)).text;
    await write();
    const { served, fromScratch } = await servedAndFromScratch();
    expect(served).toBe(fromScratch);
    // The write changed the list, so the comparison above had a kept item to catch.
    expect(served).not.toBe(before);
  });

  // Lists that keep items while writes change them (on MySQL each on its own connection): a keep
  // that stored a text older than its feature's last change would be served from then on.
  it('keeps no older text when lists and writes run at once', async () => {
    const names = ['race-1', 'race-2', 'race-3'];
    for (const name of names) await createFeature(t, name, {}, P);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        Promise.all([
          t.admin.patch(url(names[i % names.length]), { description: `race ${i}` }).expect(200),
          t.admin.get(LIST).expect(200),
        ]),
      ),
    );
    const { served, fromScratch } = await servedAndFromScratch();
    expect(served).toBe(fromScratch);
    for (const name of names) expect(served).toContain(`"name":"${name}"`);
  });
});
