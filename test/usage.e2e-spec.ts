import { createFeature, createStrategy, envUrl, featureUrl } from './feature-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

const SEGMENTS = '/api/admin/segments';
const CONTEXT = '/api/admin/context';

/** Segment and context-field usage: which strategies use them, and the counts on their records. */
describe('segment and context field usage', () => {
  let t: TestApp;
  let eu: number;
  let unused: number;

  const regionIn = (values: string[]) => ({ contextName: 'region', operator: 'IN', values });

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' }).expect(201);
    await t.admin
      .post(CONTEXT, { name: 'region', legalValues: [{ value: 'eu' }, { value: 'us' }] })
      .expect(201);
    // A field whose name is a prefix of another must not count the other's constraints.
    await t.admin.post(CONTEXT, { name: 'regio' }).expect(201);
    eu = (await t.admin.post(SEGMENTS, { name: 'eu', constraints: [] }).expect(201)).body.id;
    unused = (await t.admin.post(SEGMENTS, { name: 'unused', constraints: [] }).expect(201)).body
      .id;
    await createFeature(t, 'checkout');
    await createFeature(t, 'search');
    await createFeature(t, 'cart', {}, 'shop');
    await createFeature(t, 'old');
  });
  afterAll(() => t.close());

  it('GET /segments/strategies/:strategyId lists the strategy’s segments, so a UI keeps them', async () => {
    const strategy = await createStrategy(t, 'checkout', 'development', {
      name: 'default',
      segments: [eu, unused],
    });
    const res = await t.admin.get(`${SEGMENTS}/strategies/${strategy.id}`).expect(200);
    expect(res.body.segments.map((s: { id: number }) => s.id)).toEqual([eu, unused]);
    expect(res.body.segments[0]).toEqual(
      expect.objectContaining({ id: eu, name: 'eu', constraints: [], project: null }),
    );
    const bare = await createStrategy(t, 'checkout', 'production');
    await t.admin.get(`${SEGMENTS}/strategies/${bare.id}`).expect(200, { segments: [] });
    expectErrorRecord(await t.admin.get(`${SEGMENTS}/strategies/nope`), 404, 'NotFoundError');
    // Saving the strategy back with the segments read keeps them.
    await t.admin
      .put(`${envUrl('checkout', 'development')}/strategies/${strategy.id}`, {
        name: 'default',
        segments: res.body.segments.map((s: { id: number }) => s.id),
      })
      .expect(200);
    await t.admin.get(`${SEGMENTS}/strategies/${strategy.id}`).expect(200, res.body);
  });

  it('GET /segments/:id/strategies lists where a segment is used; counts skip archived features', async () => {
    await createStrategy(t, 'search', 'production', { name: 'default', segments: [eu] });
    await createStrategy(t, 'cart', 'development', { name: 'default', segments: [eu] }, 'shop');
    const old = await createStrategy(t, 'old', 'development', { name: 'default', segments: [eu] });
    await t.admin.delete(featureUrl('old')).expect(204);

    const res = await t.admin.get(`${SEGMENTS}/${eu}/strategies`).expect(200);
    expect(res.body.changeRequestStrategies).toEqual([]);
    expect(res.body.strategies).toEqual([
      {
        id: expect.any(String),
        projectId: 'shop',
        featureName: 'cart',
        strategyName: 'default',
        environment: 'development',
      },
      {
        id: expect.any(String),
        projectId: 'default',
        featureName: 'checkout',
        strategyName: 'default',
        environment: 'development',
      },
      {
        id: old.id,
        projectId: 'default',
        featureName: 'old',
        strategyName: 'default',
        environment: 'development',
      },
      {
        id: expect.any(String),
        projectId: 'default',
        featureName: 'search',
        strategyName: 'default',
        environment: 'production',
      },
    ]);
    await t.admin.get(`${SEGMENTS}/${unused}/strategies`).expect(200);

    const list = await t.admin.get(SEGMENTS).expect(200);
    const counts = list.body.segments.map(
      (s: { name: string; usedInFeatures: number; usedInProjects: number }) => [
        s.name,
        s.usedInFeatures,
        s.usedInProjects,
      ],
    );
    expect(counts).toEqual([
      ['eu', 3, 2],
      ['unused', 1, 1],
    ]);
    const one = await t.admin.get(`${SEGMENTS}/${eu}`).expect(200);
    expect([one.body.usedInFeatures, one.body.usedInProjects]).toEqual([3, 2]);
  });

  it('GET /context/:name/strategies lists the strategies whose constraints name the field', async () => {
    const a = await createStrategy(t, 'checkout', 'production', {
      name: 'default',
      constraints: [regionIn(['eu'])],
    });
    await createStrategy(
      t,
      'cart',
      'development',
      { name: 'default', constraints: [regionIn(['us'])] },
      'shop',
    );
    // A value that quotes the name is not a use of the field.
    await createStrategy(t, 'search', 'development', {
      name: 'default',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['"contextName":"region"'] }],
    });
    const res = await t.admin.get(`${CONTEXT}/region/strategies`).expect(200);
    expect(res.body).toEqual({
      strategies: [
        {
          id: expect.any(String),
          projectId: 'shop',
          featureName: 'cart',
          strategyName: 'default',
          environment: 'development',
        },
        {
          id: a.id,
          projectId: 'default',
          featureName: 'checkout',
          strategyName: 'default',
          environment: 'production',
        },
      ],
    });
    await t.admin.get(`${CONTEXT}/regio/strategies`).expect(200, { strategies: [] });
    expectErrorRecord(await t.admin.get(`${CONTEXT}/nope/strategies`), 404, 'NotFoundError');

    const fields = await t.admin.get(CONTEXT).expect(200);
    const usage = Object.fromEntries(
      fields.body.map((f: { name: string; usedInFeatures: number; usedInProjects: number }) => [
        f.name,
        [f.usedInFeatures, f.usedInProjects],
      ]),
    );
    expect(usage).toEqual(
      expect.objectContaining({ region: [2, 2], regio: [0, 0], userId: [1, 1], appName: [0, 0] }),
    );
    const one = await t.admin.get(`${CONTEXT}/region`).expect(200);
    expect([one.body.usedInFeatures, one.body.usedInProjects]).toEqual([2, 2]);
  });

  it('counts usage for the whole list in one statement, however many fields or segments', async () => {
    const fieldsBefore = await t.sql.measure(() => t.admin.get(CONTEXT).expect(200));
    const segmentsBefore = await t.sql.measure(() => t.admin.get(SEGMENTS).expect(200));
    for (let i = 0; i < 15; i++) {
      await t.admin.post(CONTEXT, { name: `field-${i}` }).expect(201);
      await t.admin.post(SEGMENTS, { name: `segment-${i}`, constraints: [] }).expect(201);
    }
    const fieldsAfter = await t.sql.measure(() => t.admin.get(CONTEXT).expect(200));
    const segmentsAfter = await t.sql.measure(() => t.admin.get(SEGMENTS).expect(200));
    expect(fieldsAfter.result.body.length).toBe(fieldsBefore.result.body.length + 15);
    expect(segmentsAfter.result.body.segments.length).toBe(
      segmentsBefore.result.body.segments.length + 15,
    );
    const statements = (m: { statements: string[] }) =>
      m.statements.filter((sql) => !/api_tokens|role_permissions/.test(sql));
    expect(statements(fieldsAfter)).toHaveLength(1);
    expect(statements(segmentsAfter)).toHaveLength(1);
  });

  it('answers 400 for a malformed segment id and 404 for an unknown one', async () => {
    const bad = await t.admin.get(`${SEGMENTS}/abc/strategies`);
    expect(expectErrorRecord(bad, 400, 'ValidationError').details?.[0].path).toBe('/param/id');
    expectErrorRecord(await t.admin.get(`${SEGMENTS}/9999/strategies`), 404, 'NotFoundError');
    expectErrorRecord(
      await t.http.get(`${SEGMENTS}/${eu}/strategies`),
      401,
      'AuthenticationRequired',
    );
  });
});
