import { EXPORT } from './export-fixtures';
import {
  createFeature,
  createStrategy,
  envUrl,
  featureUrl,
  insertProjectDirectly,
} from './feature-fixtures';
import { IMPORT } from './import-fixtures';
import { startTestApp, TestApp } from './support/test-app';

/** A read of the lists a kept run holds from their own tables. */
const READS_TABLES = /FROM (feature_environments fe|feature_strategies fs|feature_tags ft)\b/;

// The export keeps each run of features' environment, strategy and tag items between exports
// (export_kept_runs). Every kind of write must leave no kept row behind that is older than what
// it shows: after each write below, the export a client gets equals the export written from
// scratch, byte for byte.
describe('kept export runs', () => {
  const P = 'kept-export';
  const DEV = 'development';
  const CLONE = 'kept-export-clone';
  const FEATURES = ['a', 'b', 'c', 'p'];
  let t: TestApp;
  let segmentA = 0;
  let segmentB = 0;
  let rolloutOfA = '';
  let defaultOfA = '';
  let strategyOfB = '';

  const url = (name: string) => featureUrl(name, P);
  const env = (name: string, environment: string) => envUrl(name, environment, P);
  const strategy = (name: string, environment: string, id: string) =>
    `${env(name, environment)}/strategies/${id}`;
  const exportBody = (environment: string) => ({ environment, project: P });

  async function exportText(environment = DEV): Promise<string> {
    return (await t.admin.post(EXPORT, exportBody(environment)).expect(200)).text;
  }

  /** The export as served now, then as written with no kept row at all (which keeps them anew). */
  async function servedAndFromScratch(
    environment = DEV,
  ): Promise<{ served: string; fromScratch: string }> {
    const served = await exportText(environment);
    await t.dataSource.query('DELETE FROM export_kept_runs');
    const fromScratch = await exportText(environment);
    return { served, fromScratch };
  }

  beforeAll(async () => {
    t = await startTestApp();
    await insertProjectDirectly(t, P, [DEV, 'production']);
    await t.admin
      .post('/api/admin/context', {
        name: 'region',
        legalValues: [{ value: 'eu' }, { value: 'us' }],
      })
      .expect(201);
    segmentA = (
      await t.admin.post('/api/admin/segments', { name: 'seg-a', constraints: [] }).expect(201)
    ).body.id;
    segmentB = (
      await t.admin.post('/api/admin/segments', { name: 'seg-b', constraints: [] }).expect(201)
    ).body.id;
    for (const name of FEATURES) await createFeature(t, name, {}, P);
    rolloutOfA = (
      await createStrategy(
        t,
        'a',
        DEV,
        {
          name: 'flexibleRollout',
          title: 'Half of Europe',
          parameters: { rollout: '50', stickiness: 'default', groupId: 'a' },
          constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
          variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
          segments: [segmentA],
        },
        P,
      )
    ).id;
    defaultOfA = (await createStrategy(t, 'a', DEV, { name: 'default' }, P)).id;
    await createStrategy(t, 'b', DEV, { name: 'default', title: 'Everyone' }, P);
    await createStrategy(
      t,
      'c',
      DEV,
      {
        name: 'default',
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['42'] }],
      },
      P,
    );
    await createStrategy(t, 'p', DEV, { name: 'default' }, P);
    await t.admin.post('/api/admin/features/a/tags', { type: 'simple', value: 'one' }).expect(201);
    await t.admin.post(`${url('c')}/dependencies`, { feature: 'p' }).expect(201);
  });
  afterAll(() => t.close());

  it('keeps the runs of an export, and a second export reads them instead of the tables', async () => {
    const first = await exportText();
    const [{ kept }] = await t.dataSource.query(
      `SELECT COUNT(*) AS kept FROM export_kept_runs WHERE environment_name = 'development'`,
    );
    expect(Number(kept)).toBeGreaterThan(0);
    const again = await t.sql.measure(() => t.admin.post(EXPORT, exportBody(DEV)).expect(200));
    expect(again.statements.filter((sql) => /INTO export_kept_runs/.test(sql))).toEqual([]);
    expect(again.statements.filter((sql) => READS_TABLES.test(sql))).toEqual([]);
    expect(again.result.text).toBe(first);
  });

  // [what, the write, the environment whose export it changes]
  const writes: Array<[string, () => Promise<unknown>, string?]> = [
    [
      'a strategy added',
      async () => {
        strategyOfB = (await createStrategy(t, 'b', DEV, { name: 'default', title: 'added' }, P))
          .id;
      },
    ],
    [
      "a strategy's parameters and constraints replaced (PUT)",
      () =>
        t.admin
          .put(strategy('a', DEV, rolloutOfA), {
            name: 'flexibleRollout',
            title: 'Half of Europe',
            parameters: { rollout: '30', stickiness: 'default', groupId: 'a' },
            constraints: [
              { contextName: 'region', operator: 'IN', values: ['eu', 'us'] },
              { contextName: 'userId', operator: 'NUM_GT', value: '10', inverted: true },
            ],
            variants: [
              { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' },
            ],
            segments: [segmentA],
          })
          .expect(200),
    ],
    [
      "a strategy's title changed (PUT)",
      () =>
        t.admin
          .put(strategy('a', DEV, defaultOfA), { name: 'default', title: 'Everyone else' })
          .expect(200),
    ],
    [
      'a strategy disabled',
      () =>
        t.admin
          .put(strategy('b', DEV, strategyOfB), { name: 'default', title: 'added', disabled: true })
          .expect(200),
    ],
    [
      'a segment linked to a strategy',
      () =>
        t.admin
          .put(strategy('b', DEV, strategyOfB), {
            name: 'default',
            title: 'added',
            disabled: true,
            segments: [segmentB],
          })
          .expect(200),
    ],
    [
      'a linked segment renamed',
      () => t.admin.put(`/api/admin/segments/${segmentB}`, { name: 'seg-b2' }).expect(200),
    ],
    [
      'a segment removed from a strategy',
      () =>
        t.admin
          .put(strategy('b', DEV, strategyOfB), {
            name: 'default',
            title: 'added',
            disabled: true,
            segments: [],
          })
          .expect(200),
    ],
    [
      'a named context field changed',
      () => t.admin.put('/api/admin/context/region', { description: 'Where' }).expect(200),
    ],
    [
      // No set-sort-order route: a PUT with a sortOrder moves the strategy.
      'strategies reordered',
      () =>
        t.admin
          .put(strategy('a', DEV, defaultOfA), {
            name: 'default',
            title: 'Everyone else',
            sortOrder: -1,
          })
          .expect(200),
    ],
    ['a strategy deleted', () => t.admin.delete(strategy('b', DEV, strategyOfB)).expect(204)],
    ['PATCH of a description', () => t.admin.patch(url('a'), { description: 'new' }).expect(200)],
    ['switching on', () => t.admin.post(`${env('a', DEV)}/on`).expect(204)],
    [
      'environment variants',
      () =>
        t.admin
          .put(`${env('b', DEV)}/variants`, [
            { name: 'v', weight: 1000, weightType: 'variable', stickiness: 'default' },
          ])
          .expect(200),
    ],
    [
      'a tag added',
      () => t.admin.post('/api/admin/features/b/tags', { type: 'simple', value: 'xx' }).expect(201),
    ],
    ['a tag removed', () => t.admin.delete('/api/admin/features/a/tags/simple/one').expect(204)],
    [
      'a tag of a new type added',
      async () => {
        await t.admin.post('/api/admin/tag-types', { name: 'kind' }).expect(201);
        await t.admin.post('/api/admin/features/b/tags', { type: 'kind', value: 'kk' }).expect(201);
      },
    ],
    // Deleting a tag type deletes its tags: the event names no feature.
    ['the tag type deleted', () => t.admin.delete('/api/admin/tag-types/kind').expect(204)],
    [
      'a parent added',
      () => t.admin.post(`${url('b')}/dependencies`, { feature: 'p' }).expect(201),
    ],
    ['an archive', () => t.admin.delete(url('b')).expect(204)],
    ['a revive', () => t.admin.post('/api/admin/archive/revive/b').expect(200)],
    ['an archive, again', () => t.admin.delete(url('b')).expect(204)],
    [
      'a revive of many',
      () => t.admin.post(`/api/admin/projects/${P}/revive`, { features: ['b'] }).expect(204),
    ],
    [
      'a feature deleted for good, then created again with another strategy',
      async () => {
        // Exports between the steps keep rows for each state on the way.
        await t.admin.delete(url('c')).expect(204);
        await exportText();
        await t.admin.delete('/api/admin/archive/c').expect(204);
        await exportText();
        await createFeature(t, 'c', {}, P);
        await exportText();
        await createStrategy(
          t,
          'c',
          DEV,
          { name: 'flexibleRollout', parameters: { rollout: '20', stickiness: 'default' } },
          P,
        );
      },
    ],
    [
      'a feature created with a strategy',
      async () => {
        await createFeature(t, 'd', {}, P);
        await exportText();
        await createStrategy(t, 'd', DEV, { name: 'default', segments: [segmentA] }, P);
      },
    ],
    [
      // Before the clone its environment does not exist: `before` is then the export's 404.
      'an environment cloned into the project',
      () =>
        t.admin
          .post(`/api/admin/environments/${DEV}/clone`, {
            name: CLONE,
            type: 'test',
            projects: [P],
          })
          .expect(200),
      CLONE,
    ],
    [
      'a strategy added in the cloned environment',
      () => createStrategy(t, 'b', CLONE, { name: 'default', title: 'cloned' }, P),
      CLONE,
    ],
    [
      'the cloned environment unlinked from the project',
      () => t.admin.delete(`/api/admin/projects/${P}/environments/${CLONE}`).expect(204),
      CLONE,
    ],
    [
      'the cloned environment linked to the project again',
      () =>
        t.admin.post(`/api/admin/projects/${P}/environments`, { environment: CLONE }).expect(201),
      CLONE,
    ],
    [
      'an import',
      () =>
        t.admin
          .post(IMPORT, {
            project: P,
            environment: DEV,
            data: {
              features: [{ name: 'a', project: P }],
              featureStrategies: [
                {
                  name: 'flexibleRollout',
                  title: 'imported',
                  featureName: 'a',
                  sortOrder: 0,
                  segments: [],
                  constraints: [{ contextName: 'region', operator: 'IN', values: ['us'] }],
                  variants: [],
                  parameters: { rollout: '10', stickiness: 'default', groupId: 'a' },
                },
              ],
              tagTypes: [],
              featureEnvironments: [{ featureName: 'a', environment: DEV, enabled: false }],
            },
          })
          .expect(204),
    ],
    [
      'an environment deleted and created again, linked, with strategies again',
      async () => {
        await t.admin.delete(`/api/admin/environments/${CLONE}`).expect(204);
        await t.admin.post('/api/admin/environments', { name: CLONE, type: 'test' }).expect(201);
        await exportText(CLONE);
        await t.admin
          .post(`/api/admin/projects/${P}/environments`, { environment: CLONE })
          .expect(201);
        await exportText(CLONE);
        await createStrategy(t, 'a', CLONE, { name: 'default', title: 'again' }, P);
        await createStrategy(
          t,
          'b',
          CLONE,
          {
            name: 'default',
            constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
          },
          P,
        );
      },
      CLONE,
    ],
  ];

  it.each(writes)(
    'serves the export as written from scratch after %s',
    async (_what, write, environment = DEV) => {
      // Not expecting 200: before a clone its environment's export is a 404.
      const before = (await t.admin.post(EXPORT, exportBody(environment))).text;
      await write();
      const { served, fromScratch } = await servedAndFromScratch(environment);
      expect(served).toBe(fromScratch);
      // The write changed the export, so the comparison above had a kept row to catch.
      expect(served).not.toBe(before);
      // From what the export from scratch kept, the next one reads the kept rows: the same bytes.
      const warm = await t.sql.measure(() =>
        t.admin.post(EXPORT, exportBody(environment)).expect(200),
      );
      expect(warm.statements.filter((sql) => READS_TABLES.test(sql))).toEqual([]);
      expect(warm.result.text).toBe(fromScratch);
    },
  );

  // Runs follow the names: a change to one feature makes its run stale, and the export after it
  // keeps that run again and leaves the others as they were.
  it('keeps a change to one feature in its own run', async () => {
    const project = 'kept-runs';
    await insertProjectDirectly(t, project, [DEV]);
    const names = Array.from({ length: 120 }, (_, i) => `run-${String(i).padStart(3, '0')}`);
    for (const name of names) await createFeature(t, name, {}, project);
    const body = { environment: DEV, project };
    const runsOf = async (): Promise<Map<string, string>> => {
      const rows: Array<{ first_feature: string; signature: string }> = await t.dataSource.query(
        `SELECT first_feature, signature FROM export_kept_runs
          WHERE environment_name = ? AND first_feature LIKE 'run-%'`,
        [DEV],
      );
      return new Map(rows.map((row) => [row.first_feature, row.signature]));
    };
    await t.admin.post(EXPORT, body).expect(200);
    const before = await runsOf();
    expect(before.size).toBeGreaterThan(1);

    await t.admin.patch(featureUrl('run-077', project), { description: 'changed' }).expect(200);
    const served = (await t.admin.post(EXPORT, body).expect(200)).text;
    const after = await runsOf();
    expect([...after.keys()]).toEqual([...before.keys()]);
    const changed = [...after].filter(([first, signature]) => before.get(first) !== signature);
    expect(changed).toHaveLength(1);
    expect(changed[0][0] <= 'run-077').toBe(true);
    expect(served).toContain('"description":"changed"');
    const warm = await t.sql.measure(() => t.admin.post(EXPORT, body).expect(200));
    expect(warm.statements.filter((sql) => READS_TABLES.test(sql))).toEqual([]);
    expect(warm.result.text).toBe(served);
  });

  // Exports that keep rows while writes change the strategies (on MySQL each on its own
  // connection): a keep that stored items older than their feature's last change would be served
  // from then on.
  it('keeps no older items when exports and strategy writes run at once', async () => {
    const names = ['race-1', 'race-2', 'race-3'];
    const ids: string[] = [];
    for (const name of names) {
      await createFeature(t, name, {}, P);
      const body = {
        name: 'flexibleRollout',
        parameters: { rollout: '100', stickiness: 'default', groupId: 'race' },
      };
      ids.push((await createStrategy(t, name, DEV, body, P)).id);
    }
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        Promise.all([
          t.admin
            .put(strategy(names[i % names.length], DEV, ids[i % names.length]), {
              name: 'flexibleRollout',
              parameters: { rollout: String(i), stickiness: 'default', groupId: 'race' },
            })
            .expect(200),
          t.admin.post(EXPORT, exportBody(DEV)).expect(200),
        ]),
      ),
    );
    const { served, fromScratch } = await servedAndFromScratch();
    expect(served).toBe(fromScratch);
    for (const name of names) expect(served).toContain(`"name":"${name}"`);
  });
});
