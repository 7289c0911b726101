import { createFeature, envUrl, featureUrl, insertProjectDirectly } from './feature-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

/**
 * Routes Unleash's admin UI 7.5.1 calls from the feature pages, found by the browser test
 * (test/ui/unleash-ui-features.ui-spec.ts): the variants form saves with a JSON Patch, and the
 * archive page revives with a list of features.
 */
describe("the feature pages' routes of Unleash's admin UI", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  describe('PATCH …/environments/:env/variants (JSON Patch)', () => {
    const url = (feature: string) => `${envUrl(feature, 'development')}/variants`;
    const stored = async (feature: string) =>
      (await t.admin.get(url(feature)).expect(200)).body.variants;

    beforeAll(async () => {
      await createFeature(t, 'patched');
    });

    it('applies the patch the UI sends for new variants, under the rules of the replace', async () => {
      // What the UI sent for two new variants (fast-json-patch's compare of [] and the form).
      const res = await t.admin
        .patch(url('patched'), [
          {
            op: 'add',
            path: '/0',
            value: {
              name: 'blue',
              weightType: 'variable',
              weight: 500,
              overrides: [],
              stickiness: 'default',
              payload: { type: 'string', value: '{"c":1}' },
            },
          },
          {
            op: 'add',
            path: '/1',
            value: {
              name: 'green',
              weightType: 'variable',
              weight: 500,
              overrides: [],
              stickiness: 'default',
            },
          },
        ])
        .expect(200);
      expect(res.body.variants.map((v: { name: string }) => v.name)).toEqual(['blue', 'green']);
      expect(res.body.variants[0].payload).toEqual({ type: 'string', value: '{"c":1}' });
      expect(await stored('patched')).toEqual(res.body.variants);
    });

    it('edits in place: replace, remove, move, copy and test', async () => {
      const res = await t.admin
        .patch(url('patched'), [
          { op: 'test', path: '/1/name', value: 'green' },
          { op: 'replace', path: '/1/name', value: 'teal' },
          { op: 'copy', from: '/0', path: '/-' },
          { op: 'replace', path: '/2/name', value: 'navy' },
          { op: 'remove', path: '/2/payload' },
          { op: 'move', from: '/2', path: '/0' },
          { op: 'remove', path: '/1' },
        ])
        .set('Content-Type', 'application/json-patch+json')
        .expect(200);
      expect(res.body.variants.map((v: { name: string }) => v.name)).toEqual(['navy', 'teal']);
      expect(res.body.variants[0].payload).toBeUndefined();
      // Weights are spread again over the variable variants, as the replace does.
      expect(res.body.variants.map((v: { weight: number }) => v.weight)).toEqual([500, 500]);
      expect(await stored('patched')).toEqual(res.body.variants);
      const events = await t.admin.get('/api/admin/events?feature=patched').expect(200);
      const updates = events.body.events.filter(
        (e: { type: string }) => e.type === 'feature-environment-variants-updated',
      );
      expect(updates).toHaveLength(2);
      expect(updates[0].preData.variants.map((v: { name: string }) => v.name)).toEqual([
        'blue',
        'green',
      ]);
    });

    it('changes nothing when any operation fails, and says which', async () => {
      const before = await stored('patched');
      const cases: Array<[unknown, string]> = [
        [
          [
            { op: 'replace', path: '/0/name', value: 'x' },
            { op: 'remove', path: '/9' },
          ],
          '/body/1/path',
        ],
        [[{ op: 'test', path: '/0/name', value: 'nope' }], '/body/0/value'],
        [[{ op: 'jump', path: '/0' }], '/body/0/op'],
        [[{ op: 'add', path: '/0/__proto__', value: { polluted: true } }], '/body/0/path'],
        [[{ op: 'add', path: '0', value: {} }], '/body/0/path'],
        [[{ op: 'add', path: '/0' }], '/body/0/value'],
        [[{ op: 'move', from: '/0', path: '/0/name' }], '/body/0/from'],
        [[{ op: 'replace', path: '', value: {} }], '/variants'],
        [{ op: 'add', path: '/0', value: {} }, '/body'],
      ];
      for (const [patch, path] of cases) {
        const res = await t.admin.patch(url('patched'), patch as object);
        const error = expectErrorRecord(res, 400, 'ValidationError');
        expect(error.details?.map((d) => d.path)).toContain(path);
      }
      expect(await stored('patched')).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses a patched list that breaks the rules, pointing into the list', async () => {
      const res = await t.admin.patch(url('patched'), [
        { op: 'replace', path: '/1/name', value: 'navy' },
        { op: 'replace', path: '/0/stickiness', value: 'no-such-field' },
      ]);
      const error = expectErrorRecord(res, 400, 'ValidationError');
      expect(error.details?.every((d) => d.path.startsWith('/variants/'))).toBe(true);
      expect(error.details).toHaveLength(2);
    });

    it('answers 404 for an unknown feature or environment, and 400 for an archived feature', async () => {
      const add = [{ op: 'add', path: '/-', value: { name: 'x', weight: 0 } }];
      expectErrorRecord(await t.admin.patch(url('missing'), add), 404, 'NotFoundError');
      expectErrorRecord(
        await t.admin.patch(`${envUrl('patched', 'nowhere')}/variants`, add),
        404,
        'NotFoundError',
      );
      await createFeature(t, 'patched-archived');
      await t.admin.delete(featureUrl('patched-archived')).expect(204);
      expectErrorRecord(await t.admin.patch(url('patched-archived'), add), 400, 'ValidationError');
    });

    it('applies concurrent patches one after the other, losing none', async () => {
      await createFeature(t, 'patched-race');
      const adds = Array.from({ length: 6 }, (_, i) =>
        t.admin.patch(url('patched-race'), [
          { op: 'add', path: '/-', value: { name: `v${i}`, weight: 0 } },
        ]),
      );
      for (const res of await Promise.all(adds)) expect(res.status).toBe(200);
      const names = (await stored('patched-race')).map((v: { name: string }) => v.name).sort();
      expect(names).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
    });
  });

  describe('POST /api/admin/projects/:id/revive {features}', () => {
    const revive = (features: unknown, project = 'default') =>
      t.admin.post(`/api/admin/projects/${project}/revive`, { features });
    const archived = async (name: string) =>
      (await t.admin.get(featureUrl(name)).expect(200)).body.archived;

    beforeAll(async () => {
      for (const name of ['rev-a', 'rev-b', 'rev-active']) await createFeature(t, name);
      await t.admin.delete(featureUrl('rev-a')).expect(204);
      await t.admin.delete(featureUrl('rev-b')).expect(204);
      await insertProjectDirectly(t, 'elsewhere', ['development']);
      await createFeature(t, 'rev-other', {}, 'elsewhere');
      await t.admin.delete(featureUrl('rev-other', 'elsewhere')).expect(204);
    });

    it('revives none when one listed feature is not an archived feature of the project', async () => {
      for (const [features, bad] of [
        [['rev-a', 'rev-active'], '/body/features/1'],
        [['rev-a', 'rev-other'], '/body/features/1'],
        [['missing', 'rev-b'], '/body/features/0'],
      ] as const) {
        const error = expectErrorRecord(await revive(features), 400, 'ValidationError');
        expect(error.details?.map((d) => d.path)).toEqual([bad]);
      }
      expect(await archived('rev-a')).toBe(true);
      expect(await archived('rev-b')).toBe(true);
      expectErrorRecord(await revive('rev-a'), 400, 'ValidationError');
      expectErrorRecord(await revive(['rev-a'], 'nowhere'), 404, 'NotFoundError');
    });

    it('revives all listed features, with one event each', async () => {
      await revive(['rev-a', 'rev-b', 'rev-a']).expect(204);
      expect(await archived('rev-a')).toBe(false);
      expect(await archived('rev-b')).toBe(false);
      const events = await t.admin.get('/api/admin/events?type=feature-revived').expect(200);
      expect(events.body.events.map((e: { featureName: string }) => e.featureName).sort()).toEqual([
        'rev-a',
        'rev-b',
      ]);
      // Reviving them again is refused: they are no longer archived.
      expectErrorRecord(await revive(['rev-a']), 400, 'ValidationError');
    });
  });
});
