import { insertRawFeature } from './fixtures/raw-features';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const ENVIRONMENTS = '/api/admin/environments';

describe('environments', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const record = (fields: Record<string, unknown>) => ({
    enabled: true,
    protected: false,
    projectCount: 0,
    apiTokenCount: 0,
    enabledToggleCount: 0,
    ...fields,
  });

  it('lists the seeded environments with their counts, wrapped and versioned', async () => {
    const res = await t.admin.get(ENVIRONMENTS).expect(200);
    expect(res.body).toEqual({
      version: 1,
      environments: [
        record({ name: 'development', type: 'development', sortOrder: 100, projectCount: 1 }),
        record({ name: 'production', type: 'production', sortOrder: 200, projectCount: 1 }),
      ],
    });
  });

  it('creates an environment: 201 with exactly the Environment record, enabled and unlinked', async () => {
    const res = await t.admin
      .post(ENVIRONMENTS, { name: 'staging', type: 'preproduction', sortOrder: 150 })
      .expect(201);
    expect(res.body).toEqual(record({ name: 'staging', type: 'preproduction', sortOrder: 150 }));
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'apiTokenCount',
        'enabled',
        'enabledToggleCount',
        'name',
        'projectCount',
        'protected',
        'sortOrder',
        'type',
      ].sort(),
    );
    await t.admin.get(`${ENVIRONMENTS}/staging`).expect(200, res.body);

    // Unknown types are accepted; without a sortOrder the environment goes last.
    const custom = await t.admin
      .post(ENVIRONMENTS, { name: 'qa-lab', type: 'lab', protected: true })
      .expect(201);
    expect(custom.body).toEqual(
      record({ name: 'qa-lab', type: 'lab', sortOrder: 201, protected: true }),
    );
  });

  it('sorts the list by sortOrder, then by name in byte order', async () => {
    await t.admin.post(ENVIRONMENTS, { name: 'b-env', type: 'test', sortOrder: 50 }).expect(201);
    await t.admin.post(ENVIRONMENTS, { name: 'a-env', type: 'test', sortOrder: 50 }).expect(201);
    await t.admin.post(ENVIRONMENTS, { name: 'Z-env', type: 'test', sortOrder: 50 }).expect(201);
    const res = await t.admin.get(ENVIRONMENTS).expect(200);
    expect(res.body.environments.map((e: { name: string }) => e.name)).toEqual([
      'Z-env',
      'a-env',
      'b-env',
      'development',
      'staging',
      'production',
      'qa-lab',
    ]);
  });

  it('treats names case-sensitively on both databases', async () => {
    await t.admin.post(ENVIRONMENTS, { name: 'Development', type: 'development' }).expect(201);
    const res = await t.admin.get(`${ENVIRONMENTS}/Development`).expect(200);
    expect(res.body.projectCount).toBe(0);
    await t.admin.delete(`${ENVIRONMENTS}/Development`).expect(204);
    await t.admin.get(`${ENVIRONMENTS}/development`).expect(200);
  });

  it('answers each invalid create with 400 and one detail per field', async () => {
    const bad = await t.admin.post(ENVIRONMENTS, {
      name: 'has space',
      type: 'x'.repeat(101),
      sortOrder: 1.5,
      protected: 'yes',
      color: 'red',
    });
    expect(
      expectErrorRecord(bad, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/color', '/body/name', '/body/protected', '/body/sortOrder', '/body/type']);

    const missing = await t.admin.post(ENVIRONMENTS, {});
    expect(
      expectErrorRecord(missing, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/name', '/body/type']);
    for (const name of ['.', '..', '', 'x'.repeat(101), 'a/b']) {
      expectErrorRecord(
        await t.admin.post(ENVIRONMENTS, { name, type: 'test' }),
        400,
        'ValidationError',
      );
    }
    expectErrorRecord(
      await t.admin.post(ENVIRONMENTS, { name: 'big', type: 'test', sortOrder: 2 ** 31 }),
      400,
      'ValidationError',
    );
    // A 100-character name and type are fine.
    await t.admin.post(ENVIRONMENTS, { name: 'n'.repeat(100), type: 't'.repeat(100) }).expect(201);
  });

  it('answers 409 NameExistsError for a taken name', async () => {
    const res = await t.admin.post(ENVIRONMENTS, { name: 'production', type: 'production' });
    expect(expectErrorRecord(res, 409, 'NameExistsError').message).toBe(
      'A environment with name production already exists',
    );
  });

  it('answers 404 for an unknown environment on every route that names one', async () => {
    const get = await t.admin.get(`${ENVIRONMENTS}/nowhere`);
    expect(expectErrorRecord(get, 404, 'NotFoundError').message).toBe(
      'Could not find environment with name nowhere',
    );
    expectErrorRecord(
      await t.admin.put(`${ENVIRONMENTS}/nowhere`, { type: 'test' }),
      404,
      'NotFoundError',
    );
    expectErrorRecord(await t.admin.delete(`${ENVIRONMENTS}/nowhere`), 404, 'NotFoundError');
    expectErrorRecord(await t.admin.post(`${ENVIRONMENTS}/nowhere/on`), 404, 'NotFoundError');
    expectErrorRecord(await t.admin.post(`${ENVIRONMENTS}/nowhere/off`), 404, 'NotFoundError');
  });

  it('updates type and sortOrder; the name may be repeated but not changed', async () => {
    await t.admin.post(ENVIRONMENTS, { name: 'edit-me', type: 'test', sortOrder: 7 }).expect(201);
    const typeOnly = await t.admin
      .put(`${ENVIRONMENTS}/edit-me`, { type: 'production' })
      .expect(200);
    expect(typeOnly.body).toEqual(record({ name: 'edit-me', type: 'production', sortOrder: 7 }));
    const both = await t.admin
      .put(`${ENVIRONMENTS}/edit-me`, { name: 'edit-me', type: 'test', sortOrder: 3 })
      .expect(200);
    expect(both.body).toEqual(record({ name: 'edit-me', type: 'test', sortOrder: 3 }));
    await t.admin.get(`${ENVIRONMENTS}/edit-me`).expect(200, both.body);

    const rename = await t.admin.put(`${ENVIRONMENTS}/edit-me`, { name: 'other' });
    expect(expectErrorRecord(rename, 400, 'ValidationError').details?.[0].path).toBe('/body/name');
    const protect = await t.admin.put(`${ENVIRONMENTS}/edit-me`, { protected: true });
    expect(expectErrorRecord(protect, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/protected',
    );
    expectErrorRecord(
      await t.admin.put(`${ENVIRONMENTS}/edit-me`, { type: '' }),
      400,
      'ValidationError',
    );
  });

  it('refuses to update or delete a protected environment but lets it be switched', async () => {
    await t.admin
      .post(ENVIRONMENTS, { name: 'locked', type: 'production', protected: true })
      .expect(201);
    expectErrorRecord(
      await t.admin.put(`${ENVIRONMENTS}/locked`, { type: 'test' }),
      400,
      'ProtectedEnvironmentError',
    );
    expectErrorRecord(
      await t.admin.delete(`${ENVIRONMENTS}/locked`),
      400,
      'ProtectedEnvironmentError',
    );
    await t.admin.post(`${ENVIRONMENTS}/locked/off`).expect(204);
    expect((await t.admin.get(`${ENVIRONMENTS}/locked`).expect(200)).body).toEqual(
      expect.objectContaining({ name: 'locked', protected: true, enabled: false }),
    );
    await t.admin.post(`${ENVIRONMENTS}/locked/on`).expect(204);
    expect((await t.admin.get(`${ENVIRONMENTS}/locked`).expect(200)).body.enabled).toBe(true);
  });

  it('switches an environment off and on (204, idempotent); new projects skip disabled ones', async () => {
    await t.admin.post(ENVIRONMENTS, { name: 'toggled', type: 'test' }).expect(201);
    await t.admin.post(`${ENVIRONMENTS}/toggled/off`).expect(204);
    await t.admin.post(`${ENVIRONMENTS}/toggled/off`).expect(204);
    expect((await t.admin.get(`${ENVIRONMENTS}/toggled`)).body.enabled).toBe(false);
    const project = await t.admin
      .post('/api/admin/projects', { id: 'after-toggle', name: 'After toggle' })
      .expect(201);
    expect(project.body.environments).not.toContain('toggled');
    await t.admin.post(`${ENVIRONMENTS}/toggled/on`).expect(204);
    expect((await t.admin.get(`${ENVIRONMENTS}/toggled`)).body.enabled).toBe(true);
    const later = await t.admin
      .post('/api/admin/projects', { id: 'after-on', name: 'After on' })
      .expect(201);
    expect(later.body.environments).toContain('toggled');
  });

  it('deletes an environment with everything that lived only in it', async () => {
    await t.admin.post(ENVIRONMENTS, { name: 'doomed', type: 'test' }).expect(201);
    await t.admin
      .post('/api/admin/projects/default/environments', { environment: 'doomed' })
      .expect(201);
    await insertRawFeature(t, { name: 'doomed-feature', environments: { doomed: true } });
    const role = await t.admin
      .post('/api/admin/roles', {
        name: 'doomed-role',
        permissions: [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'doomed' }],
      })
      .expect(201);

    await t.admin.delete(`${ENVIRONMENTS}/doomed`).expect(204);
    expectErrorRecord(await t.admin.get(`${ENVIRONMENTS}/doomed`), 404, 'NotFoundError');
    const project = await t.admin.get('/api/admin/projects/default').expect(200);
    expect(project.body.environments).not.toContain('doomed');
    const rows = await t.dataSource.query(
      `SELECT feature_name FROM feature_environments WHERE environment_name = ?`,
      ['doomed'],
    );
    expect(rows).toEqual([]);
    const after = await t.admin.get(`/api/admin/roles/${role.body.id}`).expect(200);
    expect(after.body.permissions).toEqual([]);
  });
});

describe('environment counts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function sdkToken(type: 'client' | 'frontend', environment: string): Promise<void> {
    await t.admin
      .post('/api/admin/api-tokens', { tokenName: `${type}-${environment}`, type, environment })
      .expect(201);
  }

  it('counts linked projects, SDK tokens and enabled features, the same in the list and alone', async () => {
    await t.admin.post(ENVIRONMENTS, { name: 'counted', type: 'test', sortOrder: 1 }).expect(201);
    await t.admin.post(ENVIRONMENTS, { name: 'empty', type: 'test', sortOrder: 2 }).expect(201);
    // Projects created now are linked to every enabled environment, `counted` and `empty` too.
    await t.admin.post('/api/admin/projects', { id: 'p1', name: 'P1' }).expect(201);
    await t.admin.post('/api/admin/projects', { id: 'p2', name: 'P2' }).expect(201);
    await t.admin.delete('/api/admin/projects/p2/environments/empty').expect(204);
    await t.admin
      .post('/api/admin/projects/default/environments', { environment: 'counted' })
      .expect(201);

    await sdkToken('client', 'counted');
    await sdkToken('client', 'counted');
    await sdkToken('frontend', 'counted');
    await sdkToken('client', 'production');
    // Admin and service tokens have no environment and are never counted.
    await t.admin.post('/api/admin/api-tokens', { tokenName: 'adm', type: 'admin' }).expect(201);
    await serviceTokenWith(t, [{ name: 'READ_FEEDBACK' }]);

    await insertRawFeature(t, {
      name: 'f-on',
      project: 'p1',
      environments: { counted: true, empty: false, production: true },
    });
    await insertRawFeature(t, { name: 'f-off', project: 'p1', environments: { counted: false } });
    await insertRawFeature(t, { name: 'f-on-2', project: 'p2', environments: { counted: true } });
    await insertRawFeature(t, {
      name: 'f-archived',
      project: 'p2',
      archived: true,
      environments: { counted: true },
    });

    const list = await t.admin.get(ENVIRONMENTS).expect(200);
    const byName = Object.fromEntries(
      list.body.environments.map((e: { name: string }) => [e.name, e]),
    );
    expect(byName.counted).toEqual({
      name: 'counted',
      type: 'test',
      enabled: true,
      protected: false,
      sortOrder: 1,
      projectCount: 3,
      apiTokenCount: 3,
      enabledToggleCount: 3,
    });
    expect(byName.empty).toEqual(
      expect.objectContaining({ projectCount: 1, apiTokenCount: 0, enabledToggleCount: 0 }),
    );
    expect(byName.production).toEqual(
      expect.objectContaining({ projectCount: 3, apiTokenCount: 1, enabledToggleCount: 1 }),
    );
    expect(byName.development).toEqual(
      expect.objectContaining({ projectCount: 3, apiTokenCount: 0, enabledToggleCount: 0 }),
    );
    for (const name of ['counted', 'empty', 'production', 'development']) {
      await t.admin.get(`${ENVIRONMENTS}/${name}`).expect(200, byName[name]);
    }
    // Updating answers the record with its counts too.
    const updated = await t.admin.put(`${ENVIRONMENTS}/counted`, { sortOrder: 5 }).expect(200);
    expect(updated.body).toEqual({ ...byName.counted, sortOrder: 5 });
  });

  it('lists any number of environments with the same number of SQL statements', async () => {
    // A request just before each measurement keeps the admin token in the auth cache.
    await t.admin.get(ENVIRONMENTS).expect(200);
    const before = await t.sql.measure(() => t.admin.get(ENVIRONMENTS).expect(200));
    for (let i = 0; i < 8; i++) {
      await t.admin.post(ENVIRONMENTS, { name: `bulk-${i}`, type: 'test' }).expect(201);
      await sdkToken('client', `bulk-${i}`);
    }
    await t.admin.get(ENVIRONMENTS).expect(200);
    const after = await t.sql.measure(() => t.admin.get(ENVIRONMENTS).expect(200));
    expect(after.result.body.environments.length).toBe(before.result.body.environments.length + 8);
    expect(after.count).toBe(before.count);
    expect(after.count).toBe(1);
  });
});

describe('environment permissions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lets any admin-API token read and nobody else', async () => {
    const viewer = await serviceTokenWith(t, []);
    await t.as(viewer).get(ENVIRONMENTS).expect(200);
    await t.as(viewer).get(`${ENVIRONMENTS}/development`).expect(200);
    const client = await t.admin
      .post('/api/admin/api-tokens', { tokenName: 'c', type: 'client', environment: 'development' })
      .expect(201);
    expectErrorRecord(await t.as(client.body.secret).get(ENVIRONMENTS), 403, 'PermissionError');
    expectErrorRecord(await t.http.get(ENVIRONMENTS), 401, 'AuthenticationRequired');
  });

  it('requires CREATE_, UPDATE_ and DELETE_ENVIRONMENT for the writes', async () => {
    const none = await serviceTokenWith(t, [{ name: 'CREATE_PROJECT' }]);
    const cases: Array<[string, () => ReturnType<TestApp['admin']['get']>]> = [
      ['CREATE_ENVIRONMENT', () => t.as(none).post(ENVIRONMENTS, { name: 'x1', type: 'test' })],
      ['UPDATE_ENVIRONMENT', () => t.as(none).put(`${ENVIRONMENTS}/development`, { type: 'x' })],
      ['UPDATE_ENVIRONMENT', () => t.as(none).post(`${ENVIRONMENTS}/development/off`)],
      ['UPDATE_ENVIRONMENT', () => t.as(none).post(`${ENVIRONMENTS}/development/on`)],
      ['DELETE_ENVIRONMENT', () => t.as(none).delete(`${ENVIRONMENTS}/development`)],
    ];
    for (const [permission, call] of cases) {
      const record = expectErrorRecord(await call(), 403, 'PermissionError');
      expect(record).toEqual(expect.objectContaining({ permissions: [permission] }));
    }

    const creator = await serviceTokenWith(t, [{ name: 'CREATE_ENVIRONMENT' }]);
    await t.as(creator).post(ENVIRONMENTS, { name: 'by-service', type: 'test' }).expect(201);
    const updater = await serviceTokenWith(t, [{ name: 'UPDATE_ENVIRONMENT' }]);
    await t.as(updater).put(`${ENVIRONMENTS}/by-service`, { type: 'production' }).expect(200);
    await t.as(updater).post(`${ENVIRONMENTS}/by-service/off`).expect(204);
    await t.as(updater).post(`${ENVIRONMENTS}/by-service/on`).expect(204);
    expectErrorRecord(
      await t.as(updater).delete(`${ENVIRONMENTS}/by-service`),
      403,
      'PermissionError',
    );
    const deleter = await serviceTokenWith(t, [{ name: 'DELETE_ENVIRONMENT' }]);
    await t.as(deleter).delete(`${ENVIRONMENTS}/by-service`).expect(204);
  });
});
