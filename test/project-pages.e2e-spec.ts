import { create } from './export-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

const FEATURES = '/api/admin/projects/shop/features';

describe('project pages, feature types and lifecycle counts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await create(t, '/api/admin/projects', { id: 'shop', name: 'Shop', description: 'The shop' });
    await t.admin.delete('/api/admin/projects/shop/environments/development').expect(204);
    for (const [name, type] of [
      ['a', 'release'],
      ['b', 'release'],
      ['c', 'experiment'],
      ['d', 'operational'],
    ]) {
      await create(t, FEATURES, { name, type });
    }
    await t.admin
      .patch(`${FEATURES}/b`, [{ op: 'replace', path: '/stale', value: true }])
      .expect(200);
    await t.admin.post(`${FEATURES}/a/environments/production/on`).expect(204);
    await t.admin.delete(`${FEATURES}/d`).expect(204);
    await create(t, '/api/admin/segments', { name: 'shop-only', project: 'shop', constraints: [] });
    await create(t, '/api/admin/api-tokens', {
      tokenName: 'sdk',
      type: 'client',
      environment: 'production',
      projects: ['shop'],
    });
    await create(t, '/api/admin/api-tokens', {
      tokenName: 'other',
      type: 'client',
      environment: 'production',
      projects: ['default'],
    });
  });
  afterAll(() => t.close());

  it('overview: the environments the project uses, type counts, health and 30-day stats', async () => {
    const res = await t.admin.get('/api/admin/projects/shop/overview').expect(200);
    expect(res.body).toEqual({
      version: 1,
      id: 'shop',
      name: 'Shop',
      description: 'The shop',
      mode: 'open',
      defaultStickiness: 'default',
      featureLimit: null,
      members: 0,
      health: 67,
      technicalDebt: 33,
      environments: [{ environment: 'production' }],
      featureTypeCounts: [
        { type: 'experiment', count: 1 },
        { type: 'release', count: 2 },
      ],
      stats: {
        avgTimeToProdCurrentWindow: 0,
        createdCurrentWindow: 4,
        createdPastWindow: 0,
        archivedCurrentWindow: 1,
        archivedPastWindow: 0,
        projectActivityCurrentWindow: 0,
        projectActivityPastWindow: 0,
        projectMembersAddedCurrentWindow: 0,
      },
      createdAt: expect.any(String),
      favorite: false,
      onboardingStatus: { status: 'onboarded' },
    });
  });

  it('status: tokens and segments of the project, stale features, lifecycle stages', async () => {
    const res = await t.admin.get('/api/admin/projects/shop/status').expect(200);
    expect(res.body).toEqual({
      activityCountByDate: [],
      resources: { apiTokens: 1, members: 0, segments: 1 },
      health: { current: 67 },
      technicalDebt: { current: 33 },
      lifecycleSummary: {
        initial: { currentFlags: 2, averageDays: null },
        preLive: { currentFlags: 0, averageDays: null },
        live: { currentFlags: 1, averageDays: null },
        completed: { currentFlags: 0, averageDays: null },
        archived: { currentFlags: 1, last30Days: 1 },
      },
      staleFlags: { total: 1 },
    });
  });

  it('an empty project is healthy', async () => {
    await create(t, '/api/admin/projects', { id: 'empty', name: 'Empty' });
    const res = await t.admin.get('/api/admin/projects/empty/status').expect(200);
    expect(res.body.health).toEqual({ current: 100 });
    expect(res.body.staleFlags).toEqual({ total: 0 });
  });

  it('answers 404 for a project that does not exist, 401 without a token', async () => {
    for (const page of ['overview', 'status']) {
      expectErrorRecord(
        await t.admin.get(`/api/admin/projects/nope/${page}`),
        404,
        'NotFoundError',
      );
      expectErrorRecord(
        await t.http.get(`/api/admin/projects/shop/${page}`),
        401,
        'AuthenticationRequired',
      );
    }
  });

  it('lists the five feature types with their expected lifetimes', async () => {
    const res = await t.admin.get('/api/admin/feature-types').expect(200);
    expect(res.body.version).toBe(1);
    expect(
      res.body.types.map((type: { id: string; lifetimeDays: number | null }) => [
        type.id,
        type.lifetimeDays,
      ]),
    ).toEqual([
      ['release', 40],
      ['experiment', 40],
      ['operational', 7],
      ['kill-switch', null],
      ['permission', null],
    ]);
  });

  it('counts features by current lifecycle stage, over every project', async () => {
    await create(t, '/api/admin/projects/default/features', { name: 'elsewhere' });
    const res = await t.admin.get('/api/admin/lifecycle/count').expect(200);
    expect(res.body).toEqual({ initial: 3, preLive: 0, live: 1, completed: 0, archived: 1 });
  });
});
