import { insertRawFeature, insertRawStrategy } from './fixtures/raw-features';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const SEGMENTS = '/api/admin/segments';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('segments', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin
      .post('/api/admin/context', {
        name: 'region',
        legalValues: [{ value: 'eu' }, { value: 'us' }],
      })
      .expect(201);
    await t.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' }).expect(201);
  });
  afterAll(() => t.close());

  it('lists no segments on a fresh database, wrapped', async () => {
    await t.admin.get(SEGMENTS).expect(200, { segments: [] });
  });

  it('creates a segment: 201 with the record and normalised constraints', async () => {
    const res = await t.admin
      .post(SEGMENTS, {
        name: 'EU beta users',
        description: 'Beta testers in Europe',
        project: 'shop',
        constraints: [
          { contextName: 'region', operator: 'IN', values: ['eu'] },
          { contextName: 'userId', operator: 'NUM_GT', value: '100', inverted: true },
        ],
      })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'EU beta users',
      description: 'Beta testers in Europe',
      project: 'shop',
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
          value: '100',
          caseInsensitive: false,
          inverted: true,
        },
      ],
      usedInFeatures: 0,
      usedInProjects: 0,
      createdAt: expect.stringMatching(ISO),
    });
    await t.admin.get(`${SEGMENTS}/${res.body.id}`).expect(200, res.body);

    const global = await t.admin.post(SEGMENTS, { name: 'Anyone', constraints: [] }).expect(201);
    expect(global.body).toEqual(
      expect.objectContaining({
        name: 'Anyone',
        description: null,
        project: null,
        constraints: [],
      }),
    );
    const list = await t.admin.get(SEGMENTS).expect(200);
    expect(list.body.segments.map((s: { name: string }) => s.name)).toEqual([
      'Anyone',
      'EU beta users',
    ]);
    expect(list.body.segments[1]).toEqual(res.body);
  });

  it('answers invalid bodies with 400: shape, constraints, project', async () => {
    const shape = await t.admin.post(SEGMENTS, {
      name: '',
      constraints: [{ contextName: 'region', operator: 'LIKE' }],
      color: 'blue',
    });
    expect(
      expectErrorRecord(shape, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/color', '/body/constraints/0/operator', '/body/name']);
    const missing = await t.admin.post(SEGMENTS, { name: 'no constraints' });
    expect(expectErrorRecord(missing, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/constraints',
    );
    expectErrorRecord(
      await t.admin.post(SEGMENTS, { name: 'x'.repeat(101), constraints: [] }),
      400,
      'ValidationError',
    );

    const rules = await t.admin.post(SEGMENTS, {
      name: 'broken',
      constraints: [
        { contextName: 'planet', operator: 'IN', values: ['earth'] },
        { contextName: 'region', operator: 'IN', values: ['eu', 'mars'] },
        { contextName: 'userId', operator: 'NUM_EQ', value: 'ten' },
      ],
    });
    expect(expectErrorRecord(rules, 400, 'ValidationError').details).toEqual([
      { path: '/body/constraints/0/contextName', message: 'Unknown context field planet' },
      { path: '/body/constraints/1/values/1', message: 'mars is not a legal value of region' },
      { path: '/body/constraints/2/value', message: 'NUM_EQ needs a number' },
    ]);

    const project = await t.admin.post(SEGMENTS, {
      name: 'nowhere',
      project: 'ghost',
      constraints: [],
    });
    expect(expectErrorRecord(project, 400, 'ValidationError').details).toEqual([
      { path: '/body/project', message: 'Could not find project with id ghost' },
    ]);
    expect((await t.admin.get(SEGMENTS)).body.segments).toHaveLength(2);
  });

  it('answers 409 NameExistsError for a taken name', async () => {
    const res = await t.admin.post(SEGMENTS, { name: 'Anyone', constraints: [] });
    expect(expectErrorRecord(res, 409, 'NameExistsError').message).toBe(
      'A segment with name Anyone already exists',
    );
  });

  it('updates a segment; absent fields stay, the id may be repeated but not changed', async () => {
    const created = await t.admin
      .post(SEGMENTS, {
        name: 'editable',
        description: 'first',
        constraints: [{ contextName: 'region', operator: 'IN', values: ['us'] }],
      })
      .expect(201);
    const id = created.body.id;
    const renamed = await t.admin
      .put(`${SEGMENTS}/${id}`, { id, name: 'edited', project: 'shop' })
      .expect(200);
    expect(renamed.body).toEqual({ ...created.body, name: 'edited', project: 'shop' });
    const replaced = await t.admin
      .put(`${SEGMENTS}/${id}`, {
        description: null,
        project: null,
        constraints: [{ contextName: 'region', operator: 'NOT_IN', values: ['eu'] }],
      })
      .expect(200);
    expect(replaced.body).toEqual({
      ...renamed.body,
      description: null,
      project: null,
      constraints: [
        {
          contextName: 'region',
          operator: 'NOT_IN',
          values: ['eu'],
          caseInsensitive: false,
          inverted: false,
        },
      ],
    });
    await t.admin.get(`${SEGMENTS}/${id}`).expect(200, replaced.body);

    const otherId = await t.admin.put(`${SEGMENTS}/${id}`, { id: id + 1 });
    expect(expectErrorRecord(otherId, 400, 'ValidationError').details?.[0].path).toBe('/body/id');
    expectErrorRecord(
      await t.admin.put(`${SEGMENTS}/${id}`, { name: 'Anyone' }),
      409,
      'NameExistsError',
    );
    expectErrorRecord(
      await t.admin.put(`${SEGMENTS}/${id}`, { project: 'ghost' }),
      400,
      'ValidationError',
    );
    const invalid = await t.admin.put(`${SEGMENTS}/${id}`, {
      constraints: [{ contextName: 'region', operator: 'IN', values: ['mars'] }],
    });
    expect(expectErrorRecord(invalid, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/constraints/0/values/0',
    );
    await t.admin.get(`${SEGMENTS}/${id}`).expect(200, replaced.body);
  });

  it('answers 404 for an unknown id and 400 for an id that is not a number', async () => {
    const res = await t.admin.get(`${SEGMENTS}/9999`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Could not find segment with id 9999',
    );
    expectErrorRecord(await t.admin.put(`${SEGMENTS}/9999`, { name: 'x' }), 404, 'NotFoundError');
    expectErrorRecord(await t.admin.delete(`${SEGMENTS}/9999`), 404, 'NotFoundError');
    const notNumber = await t.admin.get(`${SEGMENTS}/abc`);
    expect(expectErrorRecord(notNumber, 400, 'ValidationError').details?.[0].path).toBe(
      '/param/id',
    );
    expectErrorRecord(await t.admin.delete(`${SEGMENTS}/0`), 400, 'ValidationError');
  });

  it('deletes an unused segment; refuses (409) one a strategy uses', async () => {
    const unused = await t.admin.post(SEGMENTS, { name: 'unused', constraints: [] }).expect(201);
    await t.admin.delete(`${SEGMENTS}/${unused.body.id}`).expect(204);
    expectErrorRecord(await t.admin.get(`${SEGMENTS}/${unused.body.id}`), 404, 'NotFoundError');

    const used = await t.admin.post(SEGMENTS, { name: 'used', constraints: [] }).expect(201);
    await insertRawFeature(t, { name: 'checkout', environments: { development: true } });
    await insertRawStrategy(t, {
      feature: 'checkout',
      environment: 'development',
      segments: [used.body.id],
    });
    const res = await t.admin.delete(`${SEGMENTS}/${used.body.id}`);
    expect(expectErrorRecord(res, 409, 'ConflictError').message).toContain('used');
    await t.admin.get(`${SEGMENTS}/${used.body.id}`).expect(200);
  });

  it('refuses to limit a segment to a project while strategies of other projects use it', async () => {
    const shared = await t.admin.post(SEGMENTS, { name: 'shared', constraints: [] }).expect(201);
    await insertRawFeature(t, { name: 'shop-feature', project: 'shop' });
    await insertRawFeature(t, { name: 'default-feature', environments: { production: true } });
    await insertRawStrategy(t, {
      feature: 'default-feature',
      environment: 'production',
      segments: [shared.body.id],
    });
    const res = await t.admin.put(`${SEGMENTS}/${shared.body.id}`, { project: 'shop' });
    expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe('/body/project');
    await t.admin.put(`${SEGMENTS}/${shared.body.id}`, { project: 'default' }).expect(200);
  });
});

describe('segment permissions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('requires CREATE_, UPDATE_ and DELETE_SEGMENT for the writes; reads need any token', async () => {
    const seg = await t.admin.post(SEGMENTS, { name: 'perm', constraints: [] }).expect(201);
    const none = await serviceTokenWith(t, [{ name: 'CREATE_CONTEXT_FIELD' }]);
    await t.as(none).get(SEGMENTS).expect(200);
    await t.as(none).get(`${SEGMENTS}/${seg.body.id}`).expect(200);
    const cases: Array<[string, () => ReturnType<TestApp['admin']['get']>]> = [
      ['CREATE_SEGMENT', () => t.as(none).post(SEGMENTS, { name: 'x', constraints: [] })],
      ['UPDATE_SEGMENT', () => t.as(none).put(`${SEGMENTS}/${seg.body.id}`, { name: 'y' })],
      ['DELETE_SEGMENT', () => t.as(none).delete(`${SEGMENTS}/${seg.body.id}`)],
    ];
    for (const [permission, call] of cases) {
      const record = expectErrorRecord(await call(), 403, 'PermissionError');
      expect(record).toEqual(expect.objectContaining({ permissions: [permission] }));
    }
    const creator = await serviceTokenWith(t, [{ name: 'CREATE_SEGMENT' }]);
    const created = await t
      .as(creator)
      .post(SEGMENTS, { name: 'svc', constraints: [] })
      .expect(201);
    const updater = await serviceTokenWith(t, [{ name: 'UPDATE_SEGMENT' }]);
    await t.as(updater).put(`${SEGMENTS}/${created.body.id}`, { name: 'svc2' }).expect(200);
    const deleter = await serviceTokenWith(t, [{ name: 'DELETE_SEGMENT' }]);
    await t.as(deleter).delete(`${SEGMENTS}/${created.body.id}`).expect(204);
  });
});
