import {
  countRows,
  createFeature,
  createStrategy,
  envUrl,
  featureUrl,
  insertContextFieldDirectly,
  insertEnvironmentDirectly,
  insertSegmentDirectly,
} from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('feature strategies', () => {
  let t: TestApp;
  let segmentA: number;
  let segmentB: number;
  const strategies = (feature = 'rollout', env = 'development') =>
    `${envUrl(feature, env)}/strategies`;

  beforeAll(async () => {
    t = await startTestApp();
    await insertEnvironmentDirectly(t, 'staging', 'preproduction');
    await insertContextFieldDirectly(t, 'region', ['eu', 'us']);
    segmentA = await insertSegmentDirectly(t, 'beta-testers');
    segmentB = await insertSegmentDirectly(t, 'staff');
    await createFeature(t, 'rollout');
  });
  afterAll(() => t.close());

  describe('POST', () => {
    it('creates a strategy with the seed Strategy shape (201)', async () => {
      const res = await t.admin.post(strategies(), { name: 'default' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'default',
        title: null,
        disabled: false,
        featureName: 'rollout',
        sortOrder: 0,
        segments: [],
        constraints: [],
        variants: [],
        parameters: {},
      });
      const feature = await t.admin.get(featureUrl('rollout')).expect(200);
      expect(feature.body.environments[0]).toEqual(
        expect.objectContaining({
          name: 'development',
          strategies: [res.body],
          hasStrategies: true,
          hasEnabledStrategies: true,
        }),
      );
    });

    it('stores every property, normalising constraints and spreading variant weights', async () => {
      const res = await t.admin
        .post(strategies(), {
          name: 'flexibleRollout',
          title: 'Half of Europe',
          disabled: true,
          sortOrder: 10,
          parameters: { rollout: '50', stickiness: 'userId', groupId: 'g1' },
          constraints: [
            { contextName: 'region', operator: 'IN', values: ['eu'] },
            { contextName: 'userId', operator: 'NUM_GT', value: '10', inverted: true },
          ],
          variants: [
            { name: 'a', weight: 0, weightType: 'variable', stickiness: 'default' },
            { name: 'b', weight: 100, weightType: 'fix', stickiness: 'userId' },
            {
              name: 'c',
              weight: 0,
              weightType: 'variable',
              stickiness: 'default',
              payload: { type: 'json', value: '{"color":"blue"}' },
            },
          ],
          segments: [segmentB, segmentA],
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'flexibleRollout',
        title: 'Half of Europe',
        disabled: true,
        featureName: 'rollout',
        sortOrder: 10,
        segments: [segmentA, segmentB].sort((x, y) => x - y),
        constraints: [
          {
            contextName: 'region',
            operator: 'IN',
            values: ['eu'],
            caseInsensitive: false,
            inverted: false,
          },
          {
            contextName: 'userId',
            operator: 'NUM_GT',
            value: '10',
            caseInsensitive: false,
            inverted: true,
          },
        ],
        variants: [
          { name: 'a', weight: 450, weightType: 'variable', stickiness: 'default' },
          { name: 'b', weight: 100, weightType: 'fix', stickiness: 'userId' },
          {
            name: 'c',
            weight: 450,
            weightType: 'variable',
            stickiness: 'default',
            payload: { type: 'json', value: '{"color":"blue"}' },
          },
        ],
        parameters: { rollout: '50', stickiness: 'userId', groupId: 'g1' },
      });
      await t.admin.get(`${strategies()}/${res.body.id}`).expect(200, res.body);
    });

    it('gives a gradual rollout Unleash defaults for rollout, stickiness and groupId', async () => {
      const res = await t.admin
        .post(strategies(), { name: 'flexibleRollout', parameters: { stickiness: '' } })
        .expect(201);
      expect(res.body.parameters).toEqual({
        rollout: '100',
        stickiness: 'default',
        groupId: 'rollout',
      });
    });

    it('puts a strategy without sortOrder after the last one', async () => {
      await createFeature(t, 'ordered');
      const first = await createStrategy(t, 'ordered', 'development');
      const second = await createStrategy(t, 'ordered', 'development');
      const fixed = await createStrategy(t, 'ordered', 'development', {
        name: 'default',
        sortOrder: 7,
      });
      const last = await createStrategy(t, 'ordered', 'development');
      expect([first, second, fixed, last].map((s) => s.sortOrder)).toEqual([0, 1, 7, 8]);
      const other = await createStrategy(t, 'ordered', 'production');
      expect(other.sortOrder).toBe(0);
    });

    it('answers 400 naming an unknown strategy type, bad parameters and unknown stickiness', async () => {
      const res = await t.admin.post(strategies(), {
        name: 'nonexistent',
        parameters: { rollout: 50, 'a/b': 'x' },
      });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/name', message: 'Unknown strategy type nonexistent' },
        { path: '/body/parameters/rollout', message: 'rollout must be a string' },
      ]);
      const rollout = await t.admin.post(strategies(), {
        name: 'flexibleRollout',
        parameters: { rollout: '101', stickiness: 'shoeSize' },
      });
      expect(expectErrorRecord(rollout, 400, 'ValidationError').details).toEqual([
        {
          path: '/body/parameters/rollout',
          message: 'rollout must be a whole number from 0 to 100, as a string',
        },
        {
          path: '/body/parameters/stickiness',
          message:
            'Unknown context field shoeSize; stickiness must be default, random or a context field',
        },
      ]);
      for (const rolloutValue of ['abc', '-1', '5.5', '07', ' 5']) {
        expectErrorRecord(
          await t.admin.post(strategies(), {
            name: 'flexibleRollout',
            parameters: { rollout: rolloutValue },
          }),
          400,
          'ValidationError',
        );
      }
      await t.admin
        .post(strategies(), { name: 'flexibleRollout', parameters: { rollout: '0' } })
        .expect(201);
    });

    it('answers 400 for the body shape: unknown properties and wrong types', async () => {
      const res = await t.admin.post(strategies(), {
        name: 'default',
        id: 'mine',
        disabled: 'no',
        sortOrder: 1.5,
        parameters: ['a'],
        segments: [0, 'x'],
      });
      expect(
        expectErrorRecord(res, 400, 'ValidationError')
          .details?.map((d) => d.path)
          .sort(),
      ).toEqual([
        '/body/disabled',
        '/body/id',
        '/body/parameters',
        '/body/segments',
        '/body/sortOrder',
      ]);
    });

    it('answers 400 for invalid constraints, with their paths', async () => {
      const res = await t.admin.post(strategies(), {
        name: 'default',
        constraints: [
          { contextName: 'planet', operator: 'IN', values: ['earth'] },
          { contextName: 'region', operator: 'IN', values: ['eu', 'mars'] },
          { contextName: 'userId', operator: 'NUM_EQ', value: 'ten' },
          { contextName: 'userId', operator: 'LIKE', value: 'x' },
        ],
      });
      const record = expectErrorRecord(res, 400, 'ValidationError');
      expect(record.details?.map((d) => d.path)).toEqual(['/body/constraints/3/operator']);
      const semantic = await t.admin.post(strategies(), {
        name: 'default',
        constraints: [
          { contextName: 'planet', operator: 'IN', values: ['earth'] },
          { contextName: 'region', operator: 'IN', values: ['eu', 'mars'] },
          { contextName: 'userId', operator: 'NUM_EQ', value: 'ten' },
        ],
      });
      expect(expectErrorRecord(semantic, 400, 'ValidationError').details).toEqual([
        { path: '/body/constraints/0/contextName', message: 'Unknown context field planet' },
        { path: '/body/constraints/1/values/1', message: 'mars is not a legal value of region' },
        { path: '/body/constraints/2/value', message: 'NUM_EQ needs a number' },
      ]);
    });

    it('answers 400 for invalid variants', async () => {
      const shape = await t.admin.post(strategies(), {
        name: 'default',
        variants: [{ name: 'a', weight: 1001, weightType: 'half' }],
      });
      expect(
        expectErrorRecord(shape, 400, 'ValidationError')
          .details?.map((d) => d.path)
          .sort(),
      ).toEqual([
        '/body/variants/0/stickiness',
        '/body/variants/0/weight',
        '/body/variants/0/weightType',
      ]);
      const rules = await t.admin.post(strategies(), {
        name: 'default',
        variants: [
          { name: 'a', weight: 600, weightType: 'fix', stickiness: 'default' },
          { name: 'a', weight: 500, weightType: 'fix', stickiness: 'shoeSize' },
          {
            name: 'b',
            weight: 0,
            weightType: 'variable',
            stickiness: 'random',
            payload: { type: 'json', value: '{nope' },
          },
          {
            name: 'c',
            weight: 0,
            weightType: 'variable',
            stickiness: 'sessionId',
            payload: { type: 'number', value: 'twelve' },
          },
        ],
      });
      expect(expectErrorRecord(rules, 400, 'ValidationError').details).toEqual([
        {
          path: '/body/variants/1/name',
          message: 'Variant names must be unique; a appears more than once',
        },
        { path: '/body/variants/2/payload/value', message: 'A json payload must be valid JSON' },
        { path: '/body/variants/3/payload/value', message: 'A number payload must be a number' },
        { path: '/body/variants', message: 'The fix weights total 1100, more than 1000' },
        {
          path: '/body/variants/1/stickiness',
          message:
            'Unknown context field shoeSize; stickiness must be default, random or a context field',
        },
      ]);
    });

    it('answers 400 naming the segments that do not exist', async () => {
      const res = await t.admin.post(strategies(), {
        name: 'default',
        segments: [segmentA, 9999, 8888],
      });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/segments/1', message: 'Could not find segment with id 9999' },
        { path: '/body/segments/2', message: 'Could not find segment with id 8888' },
      ]);
    });

    it('answers 404 for an unknown feature, environment or unlinked environment', async () => {
      expectErrorRecord(
        await t.admin.post(strategies('ghost'), { name: 'default' }),
        404,
        'NotFoundError',
      );
      expectErrorRecord(
        await t.admin.post(strategies('rollout', 'nowhere'), { name: 'default' }),
        404,
        'NotFoundError',
      );
      const unlinked = await t.admin.post(strategies('rollout', 'staging'), { name: 'default' });
      expect(expectErrorRecord(unlinked, 404, 'NotFoundError').message).toContain(
        'not linked to project default',
      );
    });
  });

  describe('GET', () => {
    it('lists the strategies of one environment as a bare array by sortOrder, then id', async () => {
      await createFeature(t, 'listed');
      const a = await createStrategy(t, 'listed', 'development', { name: 'default', sortOrder: 5 });
      const b = await createStrategy(t, 'listed', 'development', { name: 'default', sortOrder: 1 });
      const c = await createStrategy(t, 'listed', 'development', { name: 'default', sortOrder: 5 });
      await createStrategy(t, 'listed', 'production');
      const res = await t.admin.get(strategies('listed')).expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.map((s: { id: string }) => s.id)).toEqual([b.id, ...[a.id, c.id].sort()]);
      await t.admin.get(strategies('listed', 'staging')).expect(404);
    });

    it('answers 404 for an unknown strategy id or one of another environment', async () => {
      const strategy = await createStrategy(t, 'rollout', 'production');
      await t.admin.get(`${strategies('rollout', 'production')}/${strategy.id}`).expect(200);
      const res = await t.admin.get(`${strategies('rollout', 'development')}/${strategy.id}`);
      expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
        `Could not find strategy with id ${strategy.id} for feature rollout in environment development`,
      );
      expectErrorRecord(await t.admin.get(`${strategies()}/not-a-uuid`), 404, 'NotFoundError');
      expectErrorRecord(await t.admin.get(strategies('ghost')), 404, 'NotFoundError');
    });
  });

  describe('PUT', () => {
    it('replaces the strategy and its segment links, keeping its place when sortOrder is left out', async () => {
      await createFeature(t, 'replaced');
      await createStrategy(t, 'replaced', 'development');
      const original = await createStrategy(t, 'replaced', 'development', {
        name: 'flexibleRollout',
        title: 'old',
        parameters: { rollout: '10' },
        segments: [segmentA],
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }],
      });
      const url = `${strategies('replaced')}/${original.id}`;
      const res = await t.admin
        .put(url, {
          id: original.id,
          name: 'userWithId',
          parameters: { userIds: '1,2' },
          segments: [segmentB],
        })
        .expect(200);
      expect(res.body).toEqual({
        id: original.id,
        name: 'userWithId',
        title: null,
        disabled: false,
        featureName: 'replaced',
        sortOrder: 1,
        segments: [segmentB],
        constraints: [],
        variants: [],
        parameters: { userIds: '1,2' },
      });
      const moved = await t.admin.put(url, { name: 'default', sortOrder: 42 }).expect(200);
      expect(moved.body).toEqual(expect.objectContaining({ sortOrder: 42, segments: [] }));
      expect(
        await countRows(t, 'feature_strategy_segments', 'strategy_id = ?', [original.id]),
      ).toBe(0);
    });

    it('answers 400 for an id in the body other than the path one, and for invalid bodies', async () => {
      const strategy = await createStrategy(t, 'rollout', 'development');
      const url = `${strategies()}/${strategy.id}`;
      const res = await t.admin.put(url, { id: 'other', name: 'default' });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/id', message: `id must be the strategy id of the path (${strategy.id})` },
      ]);
      expectErrorRecord(await t.admin.put(url, { title: 'no name' }), 400, 'ValidationError');
      expectErrorRecord(
        await t.admin.put(url, { name: 'default', segments: [4242] }),
        400,
        'ValidationError',
      );
      // A failed replace leaves the strategy as it was.
      await t.admin.get(url).expect(200, strategy);
    });

    it('answers 404 for an unknown strategy, feature or environment', async () => {
      expectErrorRecord(
        await t.admin.put(`${strategies()}/00000000-0000-4000-8000-000000000000`, {
          name: 'default',
        }),
        404,
        'NotFoundError',
      );
      const strategy = await createStrategy(t, 'rollout', 'development');
      expectErrorRecord(
        await t.admin.put(`${strategies('rollout', 'production')}/${strategy.id}`, {
          name: 'default',
        }),
        404,
        'NotFoundError',
      );
      expectErrorRecord(
        await t.admin.put(`${strategies('ghost')}/${strategy.id}`, { name: 'default' }),
        404,
        'NotFoundError',
      );
    });
  });

  describe('DELETE', () => {
    it('removes the strategy and its segment links (204), then 404', async () => {
      const strategy = await createStrategy(t, 'rollout', 'development', {
        name: 'default',
        segments: [segmentA],
      });
      const url = `${strategies()}/${strategy.id}`;
      await t.admin.delete(url).expect(204);
      expectErrorRecord(await t.admin.get(url), 404, 'NotFoundError');
      expectErrorRecord(await t.admin.delete(url), 404, 'NotFoundError');
      expect(
        await countRows(t, 'feature_strategy_segments', 'strategy_id = ?', [strategy.id]),
      ).toBe(0);
    });
  });

  it('keeps the strategies of an archived feature readable but unchangeable (400)', async () => {
    await createFeature(t, 'frozen');
    const strategy = await createStrategy(t, 'frozen', 'development');
    await t.admin.delete(featureUrl('frozen')).expect(204);
    const url = `${strategies('frozen')}/${strategy.id}`;
    await t.admin.get(url).expect(200);
    await t.admin.get(strategies('frozen')).expect(200);
    for (const res of [
      await t.admin.post(strategies('frozen'), { name: 'default' }),
      await t.admin.put(url, { name: 'default' }),
      await t.admin.delete(url),
    ]) {
      expect(expectErrorRecord(res, 400, 'ValidationError').message).toBe(
        'Feature frozen is archived; revive it before changing it',
      );
    }
  });

  it('checks the strategy permissions for the environment in the path', async () => {
    const token = await serviceTokenWith(t, [
      { name: 'CREATE_FEATURE_STRATEGY', environment: 'development' },
      { name: 'UPDATE_FEATURE_STRATEGY', environment: 'development' },
      { name: 'DELETE_FEATURE_STRATEGY', environment: 'development' },
    ]);
    const created = await t.as(token).post(strategies(), { name: 'default' }).expect(201);
    const url = `${strategies()}/${created.body.id}`;
    await t.as(token).put(url, { name: 'default', title: 'mine' }).expect(200);
    await t.as(token).delete(url).expect(204);

    const prod = await createStrategy(t, 'rollout', 'production');
    const prodUrl = `${strategies('rollout', 'production')}/${prod.id}`;
    const denied = await t.as(token).post(strategies('rollout', 'production'), { name: 'default' });
    expect(expectErrorRecord(denied, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['CREATE_FEATURE_STRATEGY'] }),
    );
    expect(
      expectErrorRecord(
        await t.as(token).put(prodUrl, { name: 'default' }),
        403,
        'PermissionError',
      ),
    ).toEqual(expect.objectContaining({ permissions: ['UPDATE_FEATURE_STRATEGY'] }));
    expect(expectErrorRecord(await t.as(token).delete(prodUrl), 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['DELETE_FEATURE_STRATEGY'] }),
    );
    // Reads need any admin-API token.
    await t.as(token).get(prodUrl).expect(200);
  });
});
