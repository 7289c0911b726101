import { insertRawFeature, insertRawStrategy } from './fixtures/raw-features';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const CONTEXT = '/api/admin/context';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('context fields', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists the seeded fields as a bare array, by sortOrder', async () => {
    const res = await t.admin.get(CONTEXT).expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((f: { name: string }) => f.name)).toEqual([
      'environment',
      'userId',
      'appName',
      'sessionId',
      'remoteAddress',
      'currentTime',
    ]);
    expect(res.body[1]).toEqual({
      name: 'userId',
      description: 'An identifier of the current user',
      stickiness: true,
      sortOrder: 1,
      createdAt: expect.stringMatching(ISO),
      usedInFeatures: 0,
      usedInProjects: 0,
      legalValues: [],
    });
  });

  it('creates a field: 201 with the record, legal values in the given order', async () => {
    const res = await t.admin
      .post(CONTEXT, {
        name: 'region',
        description: 'Where the user is',
        stickiness: true,
        sortOrder: 3,
        legalValues: [
          { value: 'us', description: 'United States' },
          { value: 'eu' },
          { value: 'apac', description: '' },
        ],
      })
      .expect(201);
    expect(res.body).toEqual({
      name: 'region',
      description: 'Where the user is',
      stickiness: true,
      sortOrder: 3,
      createdAt: expect.stringMatching(ISO),
      usedInFeatures: 0,
      usedInProjects: 0,
      legalValues: [
        { value: 'us', description: 'United States' },
        { value: 'eu' },
        { value: 'apac', description: '' },
      ],
    });
    await t.admin.get(`${CONTEXT}/region`).expect(200, res.body);

    const minimal = await t.admin.post(CONTEXT, { name: 'tenant' }).expect(201);
    expect(minimal.body).toEqual({
      name: 'tenant',
      description: null,
      stickiness: false,
      sortOrder: 10,
      createdAt: expect.stringMatching(ISO),
      usedInFeatures: 0,
      usedInProjects: 0,
      legalValues: [],
    });

    // Ties on sortOrder sort by name (byte order).
    const names = (await t.admin.get(CONTEXT)).body.map((f: { name: string }) => f.name);
    expect(names).toEqual([
      'environment',
      'userId',
      'appName',
      'region',
      'sessionId',
      'remoteAddress',
      'currentTime',
      'tenant',
    ]);
  });

  it('answers invalid bodies with 400 naming each field', async () => {
    const bad = await t.admin.post(CONTEXT, {
      name: 'a b',
      stickiness: 'yes',
      sortOrder: 'first',
      legalValues: [{ value: 'x'.repeat(101) }, { value: 5 }, { label: 'x', value: 'ok' }],
      extra: 1,
    });
    expect(
      expectErrorRecord(bad, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual([
      '/body/extra',
      '/body/legalValues/0/value',
      '/body/legalValues/1/value',
      '/body/legalValues/2/label',
      '/body/name',
      '/body/sortOrder',
      '/body/stickiness',
    ]);
    const duplicate = await t.admin.post(CONTEXT, {
      name: 'dupes',
      legalValues: [{ value: 'a' }, { value: 'b' }, { value: 'a' }],
    });
    expect(expectErrorRecord(duplicate, 400, 'ValidationError').details).toEqual([
      {
        path: '/body/legalValues/2/value',
        message: 'a is already legal value 0; legal values must be unique',
      },
    ]);
    expectErrorRecord(
      await t.admin.post(CONTEXT, { name: 'notarray', legalValues: 'a,b' }),
      400,
      'ValidationError',
    );
    // A 100-character legal value is fine.
    await t.admin
      .post(CONTEXT, { name: 'long-values', legalValues: [{ value: 'v'.repeat(100) }] })
      .expect(201);
  });

  it('answers 409 NameExistsError for a taken name, case-sensitively', async () => {
    expectErrorRecord(await t.admin.post(CONTEXT, { name: 'userId' }), 409, 'NameExistsError');
    await t.admin.post(CONTEXT, { name: 'userid' }).expect(201);
  });

  it('updates a field; absent fields stay, null clears the description', async () => {
    await t.admin
      .post(CONTEXT, {
        name: 'plan',
        description: 'Billing plan',
        legalValues: [{ value: 'free' }, { value: 'pro' }],
      })
      .expect(201);
    const res = await t.admin
      .put(`${CONTEXT}/plan`, { name: 'plan', stickiness: true, sortOrder: 42 })
      .expect(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        name: 'plan',
        description: 'Billing plan',
        stickiness: true,
        sortOrder: 42,
        legalValues: [{ value: 'free' }, { value: 'pro' }],
      }),
    );
    const replaced = await t.admin
      .put(`${CONTEXT}/plan`, {
        description: null,
        legalValues: [{ value: 'team', description: 'Teams' }, { value: 'free' }],
      })
      .expect(200);
    expect(replaced.body).toEqual({
      ...res.body,
      description: null,
      legalValues: [{ value: 'team', description: 'Teams' }, { value: 'free' }],
    });
    await t.admin.get(`${CONTEXT}/plan`).expect(200, replaced.body);

    const rename = await t.admin.put(`${CONTEXT}/plan`, { name: 'tier' });
    expect(expectErrorRecord(rename, 400, 'ValidationError').details?.[0].path).toBe('/body/name');
    expectErrorRecord(
      await t.admin.put(`${CONTEXT}/plan`, { legalValues: [{ value: 'a' }, { value: 'a' }] }),
      400,
      'ValidationError',
    );
  });

  it('answers 404 for an unknown field on every route that names one', async () => {
    const res = await t.admin.get(`${CONTEXT}/nothing`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Could not find context field with name nothing',
    );
    expectErrorRecord(
      await t.admin.put(`${CONTEXT}/nothing`, { sortOrder: 1 }),
      404,
      'NotFoundError',
    );
    expectErrorRecord(await t.admin.delete(`${CONTEXT}/nothing`), 404, 'NotFoundError');
  });

  it('deletes an unused field: 204', async () => {
    await t.admin.post(CONTEXT, { name: 'temporary' }).expect(201);
    await t.admin.delete(`${CONTEXT}/temporary`).expect(204);
    expectErrorRecord(await t.admin.get(`${CONTEXT}/temporary`), 404, 'NotFoundError');
  });
});

describe('context fields in use', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    for (const name of ['country', 'countryCode', 'a_b', 'axb', 'Country', 'mentioned']) {
      await t.admin.post(CONTEXT, { name }).expect(201);
    }
    await insertRawFeature(t, { name: 'geo', environments: { production: true } });
  });
  afterAll(() => t.close());

  it('refuses (409) to delete a field that a strategy constraint uses', async () => {
    await insertRawStrategy(t, {
      feature: 'geo',
      environment: 'production',
      constraints: [
        {
          contextName: 'userId',
          operator: 'IN',
          values: ['"contextName":"mentioned"'],
          caseInsensitive: false,
          inverted: false,
        },
        {
          contextName: 'country',
          operator: 'IN',
          values: ['no'],
          caseInsensitive: false,
          inverted: false,
        },
        {
          contextName: 'axb',
          operator: 'STR_CONTAINS',
          values: ['x'],
          caseInsensitive: false,
          inverted: false,
        },
      ],
    });
    const res = await t.admin.delete(`${CONTEXT}/country`);
    expect(expectErrorRecord(res, 409, 'ConflictError').message).toContain('country');
    expectErrorRecord(await t.admin.delete(`${CONTEXT}/axb`), 409, 'ConflictError');
    await t.admin.get(`${CONTEXT}/country`).expect(200);
  });

  it('matches the exact name only: not a longer name, another case, a wildcard or a value', async () => {
    for (const name of ['countryCode', 'Country', 'a_b', 'mentioned']) {
      await t.admin.delete(`${CONTEXT}/${name}`).expect(204);
    }
  });

  it('refuses (409) to delete a field that a segment constraint uses', async () => {
    await t.admin.post(CONTEXT, { name: 'browser' }).expect(201);
    const segment = await t.admin
      .post('/api/admin/segments', {
        name: 'chrome-users',
        constraints: [{ contextName: 'browser', operator: 'IN', values: ['chrome'] }],
      })
      .expect(201);
    const res = await t.admin.delete(`${CONTEXT}/browser`);
    expect(expectErrorRecord(res, 409, 'ConflictError').message).toContain('chrome-users');
    await t.admin.put(`/api/admin/segments/${segment.body.id}`, { constraints: [] }).expect(200);
    await t.admin.delete(`${CONTEXT}/browser`).expect(204);
  });
});

describe('context field permissions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('requires CREATE_, UPDATE_ and DELETE_CONTEXT_FIELD for the writes; reads need any token', async () => {
    const none = await serviceTokenWith(t, [{ name: 'CREATE_SEGMENT' }]);
    await t.as(none).get(CONTEXT).expect(200);
    await t.as(none).get(`${CONTEXT}/userId`).expect(200);
    const cases: Array<[string, () => ReturnType<TestApp['admin']['get']>]> = [
      ['CREATE_CONTEXT_FIELD', () => t.as(none).post(CONTEXT, { name: 'x' })],
      ['UPDATE_CONTEXT_FIELD', () => t.as(none).put(`${CONTEXT}/userId`, { sortOrder: 1 })],
      ['DELETE_CONTEXT_FIELD', () => t.as(none).delete(`${CONTEXT}/userId`)],
    ];
    for (const [permission, call] of cases) {
      const record = expectErrorRecord(await call(), 403, 'PermissionError');
      expect(record).toEqual(expect.objectContaining({ permissions: [permission] }));
    }
    const creator = await serviceTokenWith(t, [{ name: 'CREATE_CONTEXT_FIELD' }]);
    await t.as(creator).post(CONTEXT, { name: 'svc-field' }).expect(201);
    const updater = await serviceTokenWith(t, [{ name: 'UPDATE_CONTEXT_FIELD' }]);
    await t.as(updater).put(`${CONTEXT}/svc-field`, { sortOrder: 1 }).expect(200);
    const deleter = await serviceTokenWith(t, [{ name: 'DELETE_CONTEXT_FIELD' }]);
    await t.as(deleter).delete(`${CONTEXT}/svc-field`).expect(204);
  });
});
