import { insertRawFeature, insertRawStrategy } from './fixtures/raw-features';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const STRATEGIES = '/api/admin/strategies';

describe('strategy types', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists the built-in types, wrapped and versioned, not editable', async () => {
    const res = await t.admin.get(STRATEGIES).expect(200);
    expect(res.body.version).toBe(1);
    expect(res.body.strategies.map((s: { name: string }) => s.name)).toEqual([
      'applicationHostname',
      'default',
      'flexibleRollout',
      'remoteAddress',
      'userWithId',
    ]);
    const rollout = res.body.strategies[2];
    expect(rollout).toEqual({
      name: 'flexibleRollout',
      title: 'Gradual rollout',
      displayName: 'Gradual rollout',
      description: 'Roll out to a percentage of users, sticky on a context field.',
      editable: false,
      deprecated: false,
      parameters: [
        {
          name: 'rollout',
          type: 'percentage',
          description: 'Percentage of users to enable, 0 to 100',
          required: false,
        },
        {
          name: 'stickiness',
          type: 'string',
          description: 'Context field used to keep a user in or out',
          required: false,
        },
        {
          name: 'groupId',
          type: 'string',
          description: 'Group identifier used for the hash',
          required: false,
        },
      ],
    });
    await t.admin.get(`${STRATEGIES}/flexibleRollout`).expect(200, rollout);
  });

  it('creates a custom type: 201, editable, parameters with defaults', async () => {
    const res = await t.admin
      .post(STRATEGIES, {
        name: 'byTenant',
        title: 'Tenants',
        description: 'On for the listed tenants',
        parameters: [
          { name: 'tenants', type: 'list', description: 'Tenant ids', required: true },
          { name: 'percent', type: 'percentage' },
        ],
      })
      .expect(201);
    expect(res.body).toEqual({
      name: 'byTenant',
      title: 'Tenants',
      displayName: 'Tenants',
      description: 'On for the listed tenants',
      editable: true,
      deprecated: false,
      parameters: [
        { name: 'tenants', type: 'list', description: 'Tenant ids', required: true },
        { name: 'percent', type: 'percentage', description: '', required: false },
      ],
    });
    await t.admin.get(`${STRATEGIES}/byTenant`).expect(200, res.body);
    const bare = await t.admin.post(STRATEGIES, { name: 'bare' }).expect(201);
    expect(bare.body).toEqual({
      name: 'bare',
      title: null,
      displayName: null,
      description: null,
      editable: true,
      deprecated: false,
      parameters: [],
    });
  });

  it('answers invalid bodies with 400 and a taken name with 409', async () => {
    const bad = await t.admin.post(STRATEGIES, {
      name: 'no spaces allowed',
      parameters: [{ name: '', type: 'date' }],
      editable: true,
    });
    expect(
      expectErrorRecord(bad, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual([
      '/body/editable',
      '/body/name',
      '/body/parameters/0/name',
      '/body/parameters/0/type',
    ]);
    const twice = await t.admin.post(STRATEGIES, {
      name: 'twice',
      parameters: [
        { name: 'p', type: 'string' },
        { name: 'p', type: 'number' },
      ],
    });
    expect(expectErrorRecord(twice, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/parameters/1/name',
    );
    const taken = await t.admin.post(STRATEGIES, { name: 'default' });
    expect(expectErrorRecord(taken, 409, 'NameExistsError').message).toBe(
      'A strategy type with name default already exists',
    );
    expectErrorRecord(await t.admin.post(STRATEGIES, { name: 'bare' }), 409, 'NameExistsError');
  });

  it('updates a custom type; absent fields stay; the name may be repeated but not changed', async () => {
    await t.admin.post(STRATEGIES, { name: 'editable', title: 'E', description: 'd' }).expect(201);
    const res = await t.admin
      .put(`${STRATEGIES}/editable`, {
        name: 'editable',
        parameters: [{ name: 'ids', type: 'list', required: true }],
      })
      .expect(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        title: 'E',
        description: 'd',
        parameters: [{ name: 'ids', type: 'list', description: '', required: true }],
      }),
    );
    const cleared = await t.admin
      .put(`${STRATEGIES}/editable`, { title: null, description: 'new' })
      .expect(200);
    expect(cleared.body).toEqual({
      ...res.body,
      title: null,
      displayName: null,
      description: 'new',
    });
    await t.admin.get(`${STRATEGIES}/editable`).expect(200, cleared.body);
    const rename = await t.admin.put(`${STRATEGIES}/editable`, { name: 'other' });
    expect(expectErrorRecord(rename, 400, 'ValidationError').details?.[0].path).toBe('/body/name');
  });

  it('refuses to change or delete a built-in type (400)', async () => {
    const change = await t.admin.put(`${STRATEGIES}/default`, { description: 'mine' });
    expect(expectErrorRecord(change, 400, 'ValidationError').message).toBe(
      'The built-in strategy type default cannot be changed',
    );
    const remove = await t.admin.delete(`${STRATEGIES}/flexibleRollout`);
    expect(expectErrorRecord(remove, 400, 'ValidationError').message).toBe(
      'The built-in strategy type flexibleRollout cannot be deleted',
    );
    expect((await t.admin.get(`${STRATEGIES}/default`)).body.description).toBe(
      'On or off for everyone.',
    );
  });

  it('answers 404 for an unknown type on every route that names one', async () => {
    const res = await t.admin.get(`${STRATEGIES}/nope`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Could not find strategy type with name nope',
    );
    expectErrorRecord(
      await t.admin.put(`${STRATEGIES}/nope`, { title: 'x' }),
      404,
      'NotFoundError',
    );
    expectErrorRecord(await t.admin.delete(`${STRATEGIES}/nope`), 404, 'NotFoundError');
  });

  it('deletes an unused custom type; refuses (409) one that a strategy uses', async () => {
    await t.admin.post(STRATEGIES, { name: 'unused' }).expect(201);
    await t.admin.delete(`${STRATEGIES}/unused`).expect(204);
    expectErrorRecord(await t.admin.get(`${STRATEGIES}/unused`), 404, 'NotFoundError');

    await t.admin.post(STRATEGIES, { name: 'inUse' }).expect(201);
    await insertRawFeature(t, { name: 'uses-it', environments: { development: true } });
    await insertRawStrategy(t, {
      feature: 'uses-it',
      environment: 'development',
      strategyName: 'inUse',
    });
    const res = await t.admin.delete(`${STRATEGIES}/inUse`);
    expect(expectErrorRecord(res, 409, 'ConflictError').message).toContain('inUse');
    await t.admin.get(`${STRATEGIES}/inUse`).expect(200);
  });

  it('guards writes with CREATE_, UPDATE_ and DELETE_FEATURE; reads need any token', async () => {
    const none = await serviceTokenWith(t, [{ name: 'CREATE_FEATURE_STRATEGY' }]);
    await t.as(none).get(STRATEGIES).expect(200);
    await t.as(none).get(`${STRATEGIES}/default`).expect(200);
    const cases: Array<[string, () => ReturnType<TestApp['admin']['get']>]> = [
      ['CREATE_FEATURE', () => t.as(none).post(STRATEGIES, { name: 'x' })],
      ['UPDATE_FEATURE', () => t.as(none).put(`${STRATEGIES}/bare`, { title: 'x' })],
      ['DELETE_FEATURE', () => t.as(none).delete(`${STRATEGIES}/bare`)],
    ];
    for (const [permission, call] of cases) {
      const record = expectErrorRecord(await call(), 403, 'PermissionError');
      expect(record).toEqual(expect.objectContaining({ permissions: [permission] }));
    }
    const creator = await serviceTokenWith(t, [{ name: 'CREATE_FEATURE' }]);
    await t.as(creator).post(STRATEGIES, { name: 'svc' }).expect(201);
    const updater = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
    await t.as(updater).put(`${STRATEGIES}/svc`, { title: 'Service' }).expect(200);
    const deleter = await serviceTokenWith(t, [{ name: 'DELETE_FEATURE' }]);
    await t.as(deleter).delete(`${STRATEGIES}/svc`).expect(204);
  });
});
