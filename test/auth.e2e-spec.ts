import { routesOf } from '../src/app-setup';
import { hashToken } from '../src/auth/token-secrets';
import {
  ADMIN_TOKEN,
  expectErrorRecord,
  serviceTokenWith,
  startTestApp,
  TestApp,
} from './support/test-app';

describe('authentication and permissions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 with the error record on every registered route without a token', async () => {
    const publicRoutes = [/^\/health$/, /^\/docs/, /^\/auth\/simple\/login$/, /^\/logout$/];
    const routes = routesOf(t.app).filter(
      (r) =>
        ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) &&
        !publicRoutes.some((p) => p.test(r.url)),
    );
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const url = route.url.replace(/:[A-Za-z]+/g, '1');
      const res = await t.http[route.method.toLowerCase() as 'get'](url);
      try {
        expectErrorRecord(res, 401, 'AuthenticationRequired');
      } catch (error) {
        throw new Error(`${route.method} ${route.url}: ${(error as Error).message}`);
      }
    }
  });

  it('keeps health and the OpenAPI document public', async () => {
    await t.http.get('/health').expect(200, { health: 'GOOD' });
    const doc = await t.http.get('/docs/openapi.json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    await t.http.get('/docs').expect(200);
  });

  it('rejects unknown and malformed tokens', async () => {
    expectErrorRecord(
      await t.as('*:*.not-a-token').get('/api/admin/roles'),
      401,
      'AuthenticationRequired',
    );
    expectErrorRecord(await t.as('Bearer ').get('/api/admin/roles'), 401, 'AuthenticationRequired');
  });

  it('accepts the token with and without a Bearer prefix', async () => {
    await t.as(ADMIN_TOKEN).get('/api/admin/roles').expect(200);
    await t.as(`Bearer ${ADMIN_TOKEN}`).get('/api/admin/roles').expect(200);
  });

  it('creates a token whose secret works, is shown once and is stored only as its hash', async () => {
    const created = await t.admin
      .post('/api/admin/api-tokens', { tokenName: 'ops', type: 'admin' })
      .expect(201);
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
    expect(created.body).toEqual({
      id: expect.any(Number),
      tokenName: 'ops',
      type: 'admin',
      environment: '*',
      project: '*',
      projects: [],
      roleId: null,
      expiresAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      secret,
    });
    await t.as(secret).get('/api/admin/roles').expect(200);

    const rows: Array<Record<string, unknown>> = await t.dataSource.query(
      'SELECT * FROM api_tokens WHERE id = ?',
      [created.body.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].secret_hash).toBe(hashToken(secret));
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(secret.split('.')[1]);

    const list = await t.admin.get('/api/admin/api-tokens').expect(200);
    expect(JSON.stringify(list.body)).not.toContain(secret.split('.')[1]);
    // The listing's `secret` is the token's identifier (docs/decisions-api-tokens.md).
    expect(list.body.tokens.find((tok: { id: number }) => tok.id === created.body.id).secret).toBe(
      `token-${created.body.id}`,
    );
  });

  it('looks a token up once however many requests miss the cache together', async () => {
    const created = await t.admin
      .post('/api/admin/api-tokens', { tokenName: 'burst', type: 'admin' })
      .expect(201);
    const { result, statements } = await t.sql.measure(() =>
      Promise.all(
        Array.from({ length: 20 }, () => t.as(created.body.secret).get('/api/admin/api-tokens')),
      ),
    );
    expect(result.map((r) => r.status)).toEqual(Array(20).fill(200));
    const lookups = statements.filter((sql) => /secret_hash.?\s*=\s*\?/i.test(sql));
    expect(lookups).toHaveLength(1);
  });

  it('stops accepting a revoked token at once', async () => {
    const created = await t.admin
      .post('/api/admin/api-tokens', { tokenName: 'temp', type: 'admin' })
      .expect(201);
    await t.as(created.body.secret).get('/api/admin/roles').expect(200);
    await t.admin.delete(`/api/admin/api-tokens/${created.body.id}`).expect(204);
    expectErrorRecord(
      await t.as(created.body.secret).get('/api/admin/roles'),
      401,
      'AuthenticationRequired',
    );
    expectErrorRecord(
      await t.admin.delete(`/api/admin/api-tokens/${created.body.id}`),
      404,
      'NotFoundError',
    );
  });

  it('rejects an expiry in the past and stops accepting a token once it has expired', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const bad = await t.admin.post('/api/admin/api-tokens', {
      tokenName: 'old',
      type: 'admin',
      expiresAt: past,
    });
    expect(expectErrorRecord(bad, 400, 'ValidationError').details).toEqual([
      { path: '/body/expiresAt', message: 'expiresAt must lie in the future' },
    ]);
    const soon = new Date(Date.now() + 1500).toISOString();
    const created = await t.admin
      .post('/api/admin/api-tokens', { tokenName: 'short', type: 'admin', expiresAt: soon })
      .expect(201);
    await t.as(created.body.secret).get('/api/admin/roles').expect(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expectErrorRecord(
      await t.as(created.body.secret).get('/api/admin/roles'),
      401,
      'AuthenticationRequired',
    );
  });

  it('answers 403 to client and frontend tokens on admin routes', async () => {
    for (const type of ['client', 'frontend']) {
      const created = await t.admin
        .post('/api/admin/api-tokens', {
          tokenName: type,
          type,
          environment: 'development',
          projects: ['default'],
        })
        .expect(201);
      expect(created.body.secret).toMatch(/^default:development\.[0-9a-f]{64}$/);
      const res = await t.as(created.body.secret).get('/api/admin/roles');
      expectErrorRecord(res, 403, 'PermissionError');
    }
  });

  it('answers 403 with the missing permission to a service token whose role lacks it', async () => {
    const token = await serviceTokenWith(t, [{ name: 'READ_FEEDBACK' }]);
    await t.as(token).get('/api/admin/roles').expect(200);
    const res = await t.as(token).post('/api/admin/roles', { name: 'x', permissions: [] });
    const record = expectErrorRecord(res, 403, 'PermissionError');
    expect(record).toEqual(expect.objectContaining({ permissions: ['ADMIN'] }));
  });

  it('lets a service token with CREATE_API_TOKEN create client tokens but not admin tokens', async () => {
    const token = await serviceTokenWith(t, [{ name: 'CREATE_API_TOKEN' }]);
    await t
      .as(token)
      .post('/api/admin/api-tokens', {
        tokenName: 'sdk',
        type: 'client',
        environment: 'production',
      })
      .expect(201);
    const res = await t
      .as(token)
      .post('/api/admin/api-tokens', { tokenName: 'root', type: 'admin' });
    expect(expectErrorRecord(res, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['ADMIN'] }),
    );
  });

  it('does not let a CREATE_API_TOKEN service token bind a token to a stronger role', async () => {
    const token = await serviceTokenWith(t, [
      { name: 'CREATE_API_TOKEN' },
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
    ]);
    const toAdmin = await t
      .as(token)
      .post('/api/admin/api-tokens', { tokenName: 'esc', type: 'service', roleId: 1 });
    expect(expectErrorRecord(toAdmin, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['ADMIN'] }),
    );
    const wider = await t.admin
      .post('/api/admin/roles', {
        name: 'all-envs',
        permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT' }],
      })
      .expect(201);
    const widerRes = await t.as(token).post('/api/admin/api-tokens', {
      tokenName: 'esc2',
      type: 'service',
      roleId: wider.body.id,
    });
    expect(expectErrorRecord(widerRes, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['UPDATE_FEATURE_ENVIRONMENT'] }),
    );
    const narrower = await t.admin
      .post('/api/admin/roles', {
        name: 'dev-only',
        permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' }],
      })
      .expect(201);
    await t
      .as(token)
      .post('/api/admin/api-tokens', { tokenName: 'ok', type: 'service', roleId: narrower.body.id })
      .expect(201);
  });

  it('validates token bodies with one detail per problem', async () => {
    const res = await t.admin.post('/api/admin/api-tokens', { type: 'root', extra: true });
    const record = expectErrorRecord(res, 400, 'ValidationError');
    expect(record.details?.map((d) => d.path).sort()).toEqual([
      '/body/extra',
      '/body/tokenName',
      '/body/type',
    ]);
    const noEnv = await t.admin.post('/api/admin/api-tokens', {
      tokenName: 'c',
      type: 'client',
      environment: 'nope',
    });
    expect(expectErrorRecord(noEnv, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/environment',
    );
    const noRole = await t.admin.post('/api/admin/api-tokens', {
      tokenName: 's',
      type: 'service',
      roleId: 999,
    });
    expect(expectErrorRecord(noRole, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/roleId',
    );
  });
});

describe('roles', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists the root roles of a fresh database', async () => {
    const res = await t.admin.get('/api/admin/roles').expect(200);
    expect(res.body.roles.map((r: { name: string }) => r.name)).toEqual([
      'Admin',
      'Editor',
      'Viewer',
    ]);
    const editor = res.body.roles[1];
    const names = editor.permissions.map((p: { name: string }) => p.name);
    expect(names).toContain('CREATE_ENVIRONMENT');
    expect(names).toContain('READ_FEEDBACK');
    expect(names).not.toContain('ADMIN');
    expect(names).not.toContain('CREATE_API_TOKEN');
    expect(res.body.roles[2].permissions).toEqual([]);
  });

  it('creates, reads, updates and deletes a custom role with environment-scoped rows', async () => {
    const created = await t.admin
      .post('/api/admin/roles', {
        name: 'Dev toggler',
        description: 'toggles in development',
        permissions: [
          { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
          { name: 'CREATE_FEATURE' },
        ],
      })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Dev toggler',
      description: 'toggles in development',
      type: 'custom',
      permissions: [
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
        { name: 'CREATE_FEATURE', environment: null },
      ],
    });
    const id = created.body.id;
    await t.admin.get(`/api/admin/roles/${id}`).expect(200, created.body);
    const updated = await t.admin
      .put(`/api/admin/roles/${id}`, { permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT' }] })
      .expect(200);
    expect(updated.body.permissions).toEqual([
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: null },
    ]);
    expect(updated.body.name).toBe('Dev toggler');
    await t.admin.delete(`/api/admin/roles/${id}`).expect(204);
    expectErrorRecord(await t.admin.get(`/api/admin/roles/${id}`), 404, 'NotFoundError');
  });

  it('answers each error of the roles routes with its record', async () => {
    expectErrorRecord(
      await t.admin.post('/api/admin/roles', { name: 'Admin', permissions: [] }),
      409,
      'NameExistsError',
    );
    const unknownPermission = await t.admin.post('/api/admin/roles', {
      name: 'r1',
      permissions: [{ name: 'FLY' }],
    });
    expect(expectErrorRecord(unknownPermission, 400, 'ValidationError').details).toEqual([
      { path: '/body/permissions/0/name', message: 'name must be one of the known permissions' },
    ]);
    const unknownEnv = await t.admin.post('/api/admin/roles', {
      name: 'r2',
      permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'staging' }],
    });
    expect(expectErrorRecord(unknownEnv, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/permissions/0/environment',
    );
    expectErrorRecord(await t.admin.get('/api/admin/roles/abc'), 400, 'ValidationError');
    expectErrorRecord(await t.admin.get('/api/admin/roles/4242'), 404, 'NotFoundError');
    expectErrorRecord(await t.admin.delete('/api/admin/roles/1'), 400, 'ValidationError');
    expectErrorRecord(
      await t.admin.put('/api/admin/roles/2', { name: 'Boss' }),
      400,
      'ValidationError',
    );
  });

  it('answers 400, not 500, to a permission that is not an object (issue 13, D9)', async () => {
    for (const permissions of [[[]], [['CREATE_PROJECT']], ['CREATE_PROJECT'], [null]]) {
      const res = await t.admin.post('/api/admin/roles', { name: 'nested', permissions });
      expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toMatch(
        /^\/body\/permissions/,
      );
    }
    expect(await t.dataSource.query(`SELECT id FROM roles WHERE name = 'nested'`)).toEqual([]);
  });

  it('refuses to delete a role that a token uses', async () => {
    const role = await t.admin
      .post('/api/admin/roles', { name: 'in-use', permissions: [] })
      .expect(201);
    await t.admin
      .post('/api/admin/api-tokens', { tokenName: 'svc', type: 'service', roleId: role.body.id })
      .expect(201);
    expectErrorRecord(
      await t.admin.delete(`/api/admin/roles/${role.body.id}`),
      409,
      'ConflictError',
    );
  });
});
