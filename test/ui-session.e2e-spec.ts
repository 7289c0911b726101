import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

describe('what admin frontends read first: /api/admin/user and /api/admin/ui-config', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('describes an admin token: its name, its kind and ADMIN, with the welcome dialog seen', async () => {
    const res = await t.admin.get('/api/admin/user').expect(200);
    expect(res.body).toEqual({
      user: {
        id: expect.any(Number),
        name: expect.any(String),
        username: expect.any(String),
        accountType: 'Service Account',
        isAPI: true,
        tokenType: 'admin',
        permissions: ['ADMIN'],
      },
      permissions: [{ permission: 'ADMIN' }],
      feedback: [],
      splash: { personalDashboardKeyConcepts: true },
    });
    expect(res.body.user.id).toBeGreaterThan(0);
  });

  it('describes a service token by its role: root grants bare, one-environment grants scoped', async () => {
    const token = await serviceTokenWith(t, [
      { name: 'CREATE_FEATURE' },
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
      { name: 'CREATE_FEATURE_STRATEGY' },
    ]);
    const res = await t.as(token).get('/api/admin/user').expect(200);
    expect(res.body.user).toEqual(
      expect.objectContaining({ name: 'service', tokenType: 'service', isAPI: true }),
    );
    expect(
      [...res.body.permissions].sort((a, b) => a.permission.localeCompare(b.permission)),
    ).toEqual([
      { permission: 'CREATE_FEATURE' },
      { permission: 'CREATE_FEATURE_STRATEGY' },
      { permission: 'UPDATE_FEATURE_ENVIRONMENT', project: '*', environment: 'production' },
    ]);
    expect([...res.body.user.permissions].sort()).toEqual([
      'CREATE_FEATURE',
      'CREATE_FEATURE_STRATEGY',
      'UPDATE_FEATURE_ENVIRONMENT',
    ]);
  });

  it('a Viewer-like token holds no permission', async () => {
    const token = await serviceTokenWith(t, []);
    const res = await t.as(token).get('/api/admin/user').expect(200);
    expect(res.body.permissions).toEqual([]);
    expect(res.body.user.permissions).toEqual([]);
  });

  it('answers 401 without a token, for both routes', async () => {
    expectErrorRecord(await t.http.get('/api/admin/user'), 401, 'AuthenticationRequired');
    expectErrorRecord(await t.http.get('/api/admin/ui-config'), 401, 'AuthenticationRequired');
  });

  it('ui-config: our version and URL, our limits, no enterprise feature but the environments page', async () => {
    const res = await t.admin
      .get('/api/admin/ui-config')
      .set('Host', 'flags.example:8080')
      .expect(200);
    const { version } = jest.requireActual('../package.json') as { version: string };
    expect(res.body).toEqual(
      expect.objectContaining({
        name: 'Flagkeeper',
        version,
        unleashUrl: 'http://flags.example:8080',
        baseUriPath: '',
        authenticationType: 'custom',
        versionInfo: { current: { enterprise: version }, latest: {}, isLatest: true },
        flags: { EEA: true },
      }),
    );
    expect(res.body.resourceLimits).toEqual(
      expect.objectContaining({
        constraintValues: 1000,
        constraints: 100,
        strategySegments: 100,
        releaseTemplates: 0,
        environments: 2147483647,
      }),
    );
    expect(Object.keys(res.body.resourceLimits)).toHaveLength(17);
  });

  it('the limits reported are the ones enforced: 101 constraints on a strategy are refused', async () => {
    const limits = (await t.admin.get('/api/admin/ui-config').expect(200)).body.resourceLimits;
    await t.admin.post('/api/admin/projects/default/features', { name: 'limited' }).expect(201);
    const constraint = { contextName: 'userId', operator: 'IN', values: ['1'] };
    const url = '/api/admin/projects/default/features/limited/environments/development/strategies';
    await t.admin
      .post(url, { name: 'default', constraints: Array(limits.constraints).fill(constraint) })
      .expect(201);
    expectErrorRecord(
      await t.admin.post(url, {
        name: 'default',
        constraints: Array(limits.constraints + 1).fill(constraint),
      }),
      400,
      'ValidationError',
    );
  });
});
