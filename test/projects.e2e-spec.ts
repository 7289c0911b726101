import {
  countRows,
  featureEnvironmentRows,
  insertRawFeature,
  insertRawStrategy,
} from './fixtures/raw-features';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const PROJECTS = '/api/admin/projects';

/** Each pattern matches one statement, and all of them lie between one BEGIN and its COMMIT. */
function expectInOneTransaction(statements: string[], patterns: RegExp[]): void {
  const begin = statements.findIndex((s) => /^(BEGIN|START TRANSACTION)/i.test(s.trim()));
  const commit = statements.findIndex((s) => /^COMMIT/i.test(s.trim()));
  expect(begin).toBeGreaterThanOrEqual(0);
  for (const pattern of patterns) {
    const at = statements.findIndex((s) => pattern.test(s));
    expect(at).toBeGreaterThan(begin);
    expect(at).toBeLessThan(commit);
  }
}
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('projects', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists the default project, wrapped', async () => {
    const res = await t.admin.get(PROJECTS).expect(200);
    expect(res.body).toEqual({
      projects: [
        {
          id: 'default',
          name: 'Default',
          description: 'Default project',
          createdAt: expect.stringMatching(ISO),
          environments: ['development', 'production'],
          featureCount: 0,
        },
      ],
    });
  });

  it('creates a project linked to every enabled environment: 201 with the record', async () => {
    await t.admin.post('/api/admin/environments', { name: 'off-env', type: 'test' }).expect(201);
    await t.admin.post('/api/admin/environments/off-env/off').expect(204);
    const res = await t.admin
      .post(PROJECTS, { id: 'web', name: 'Web shop', description: 'The storefront' })
      .expect(201);
    expect(res.body).toEqual({
      id: 'web',
      name: 'Web shop',
      description: 'The storefront',
      createdAt: expect.stringMatching(ISO),
      environments: ['development', 'production'],
      featureCount: 0,
    });
    await t.admin.get(`${PROJECTS}/web`).expect(200, res.body);

    const bare = await t.admin.post(PROJECTS, { id: 'Bare.1', name: 'Bare' }).expect(201);
    expect(bare.body.description).toBeNull();
    const list = await t.admin.get(PROJECTS).expect(200);
    expect(list.body.projects.map((p: { id: string }) => p.id)).toEqual([
      'Bare.1',
      'default',
      'web',
    ]);
  });

  it('answers invalid creates with 400, a taken id with 409', async () => {
    const bad = await t.admin.post(PROJECTS, { id: 'a b', name: '', owner: 'me' });
    expect(
      expectErrorRecord(bad, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/id', '/body/name', '/body/owner']);
    expectErrorRecord(await t.admin.post(PROJECTS, { name: 'No id' }), 400, 'ValidationError');
    expectErrorRecord(
      await t.admin.post(PROJECTS, { id: '..', name: 'Dots' }),
      400,
      'ValidationError',
    );
    const taken = await t.admin.post(PROJECTS, { id: 'default', name: 'Again' });
    expect(expectErrorRecord(taken, 409, 'NameExistsError').message).toBe(
      'A project with name default already exists',
    );
    // Ids are case-sensitive.
    await t.admin.post(PROJECTS, { id: 'DEFAULT', name: 'Upper' }).expect(201);
  });

  it('updates name and description; the id may be repeated but not changed', async () => {
    await t.admin.post(PROJECTS, { id: 'edit', name: 'Edit', description: 'before' }).expect(201);
    const renamed = await t.admin.put(`${PROJECTS}/edit`, { name: 'Edited' }).expect(200);
    expect(renamed.body).toEqual(
      expect.objectContaining({ id: 'edit', name: 'Edited', description: 'before' }),
    );
    const cleared = await t.admin
      .put(`${PROJECTS}/edit`, { id: 'edit', description: null })
      .expect(200);
    expect(cleared.body).toEqual(
      expect.objectContaining({ id: 'edit', name: 'Edited', description: null }),
    );
    await t.admin.get(`${PROJECTS}/edit`).expect(200, cleared.body);
    const moved = await t.admin.put(`${PROJECTS}/edit`, { id: 'other' });
    expect(expectErrorRecord(moved, 400, 'ValidationError').details?.[0].path).toBe('/body/id');
    expectErrorRecord(await t.admin.put(`${PROJECTS}/edit`, { name: 42 }), 400, 'ValidationError');
  });

  it('answers 404 for an unknown project on every route that names one', async () => {
    const res = await t.admin.get(`${PROJECTS}/ghost`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Could not find project with id ghost',
    );
    expectErrorRecord(await t.admin.put(`${PROJECTS}/ghost`, { name: 'x' }), 404, 'NotFoundError');
    expectErrorRecord(await t.admin.delete(`${PROJECTS}/ghost`), 404, 'NotFoundError');
    expectErrorRecord(
      await t.admin.post(`${PROJECTS}/ghost/environments`, { environment: 'development' }),
      404,
      'NotFoundError',
    );
    expectErrorRecord(
      await t.admin.delete(`${PROJECTS}/ghost/environments/development`),
      404,
      'NotFoundError',
    );
  });

  it('deletes an empty project with its links and segments; refuses one with features', async () => {
    await t.admin.post(PROJECTS, { id: 'gone', name: 'Gone' }).expect(201);
    const segment = await t.admin
      .post('/api/admin/segments', { name: 'gone-seg', project: 'gone', constraints: [] })
      .expect(201);
    await t.admin.delete(`${PROJECTS}/gone`).expect(204);
    expectErrorRecord(await t.admin.get(`${PROJECTS}/gone`), 404, 'NotFoundError');
    expectErrorRecord(
      await t.admin.get(`/api/admin/segments/${segment.body.id}`),
      404,
      'NotFoundError',
    );
    expect(await countRows(t, 'project_environments WHERE project_id = ?', ['gone'])).toBe(0);

    await t.admin.post(PROJECTS, { id: 'busy', name: 'Busy' }).expect(201);
    await insertRawFeature(t, { name: 'busy-live', project: 'busy' });
    const busy = await t.admin.delete(`${PROJECTS}/busy`);
    expect(expectErrorRecord(busy, 409, 'ConflictError').message).toContain('features');

    await t.admin.post(PROJECTS, { id: 'attic', name: 'Attic' }).expect(201);
    await insertRawFeature(t, { name: 'attic-old', project: 'attic', archived: true });
    expectErrorRecord(await t.admin.delete(`${PROJECTS}/attic`), 409, 'ConflictError');
    // Archived features do not count as the project's features.
    expect((await t.admin.get(`${PROJECTS}/attic`)).body.featureCount).toBe(0);
    expect((await t.admin.get(`${PROJECTS}/busy`)).body.featureCount).toBe(1);

    expectErrorRecord(await t.admin.delete(`${PROJECTS}/default`), 400, 'ValidationError');
  });

  it('refuses to delete a project whose segment a strategy of another project uses', async () => {
    await t.admin.post(PROJECTS, { id: 'lender', name: 'Lender' }).expect(201);
    const segment = await t.admin
      .post('/api/admin/segments', { name: 'lent', project: 'lender', constraints: [] })
      .expect(201);
    await insertRawFeature(t, { name: 'borrower', environments: { development: true } });
    await insertRawStrategy(t, {
      feature: 'borrower',
      environment: 'development',
      segments: [segment.body.id],
    });
    expectErrorRecord(await t.admin.delete(`${PROJECTS}/lender`), 409, 'ConflictError');
  });
});

describe('linking projects and environments', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin.post('/api/admin/environments', { name: 'staging', type: 'test' }).expect(201);
    await t.admin.post('/api/admin/environments/staging/off').expect(204);
    await t.admin.post(PROJECTS, { id: 'app', name: 'App' }).expect(201);
    await t.admin.post(PROJECTS, { id: 'neighbour', name: 'Neighbour' }).expect(201);
  });
  afterAll(() => t.close());

  it('links an environment: 201 with the project, a disabled row for each feature', async () => {
    await insertRawFeature(t, {
      name: 'app-a',
      project: 'app',
      environments: { development: true },
    });
    await insertRawFeature(t, { name: 'app-archived', project: 'app', archived: true });
    await insertRawFeature(t, { name: 'other-a', project: 'neighbour' });

    const res = await t.admin
      .post(`${PROJECTS}/app/environments`, { environment: 'staging' })
      .expect(201);
    expect(res.body).toEqual(
      expect.objectContaining({
        id: 'app',
        environments: ['development', 'production', 'staging'],
      }),
    );
    expect(await featureEnvironmentRows(t, ['app-a', 'app-archived', 'other-a'])).toEqual([
      'app-a/development=true',
      'app-a/staging=false',
      'app-archived/staging=false',
    ]);
    const variants = await t.dataSource.query(
      `SELECT variants FROM feature_environments WHERE feature_name = ? AND environment_name = ?`,
      ['app-a', 'staging'],
    );
    expect(variants).toEqual([{ variants: '[]' }]);
    expect((await t.admin.get('/api/admin/environments/staging')).body.projectCount).toBe(1);
  });

  it('links with the same statements however many features the project has', async () => {
    await t.admin.post('/api/admin/environments', { name: 'qa', type: 'test' }).expect(201);
    await t.admin.post('/api/admin/environments', { name: 'qa2', type: 'test' }).expect(201);
    await t.admin.post(PROJECTS, { id: 'small', name: 'Small' }).expect(201);
    await t.admin.post(PROJECTS, { id: 'large', name: 'Large' }).expect(201);
    await t.admin.delete(`${PROJECTS}/small/environments/qa`).expect(204);
    await t.admin.delete(`${PROJECTS}/large/environments/qa2`).expect(204);
    await insertRawFeature(t, { name: 'small-1', project: 'small' });
    for (let i = 0; i < 12; i++)
      await insertRawFeature(t, { name: `large-${i}`, project: 'large' });

    await t.admin.get(PROJECTS).expect(200);
    const small = await t.sql.measure(() =>
      t.admin.post(`${PROJECTS}/small/environments`, { environment: 'qa' }).expect(201),
    );
    await t.admin.get(PROJECTS).expect(200);
    const large = await t.sql.measure(() =>
      t.admin.post(`${PROJECTS}/large/environments`, { environment: 'qa2' }).expect(201),
    );
    expect(large.count).toBe(small.count);
    expect(await countRows(t, `feature_environments WHERE environment_name = 'qa2'`)).toBe(12);
    const inserts = large.statements.filter((s) => /INSERT INTO .?feature_environments/.test(s));
    expect(inserts).toHaveLength(1);
    expectInOneTransaction(large.statements, [
      /INSERT INTO .?project_environments/,
      /INSERT INTO .?feature_environments/,
    ]);
  });

  it('answers link errors: unknown environment 400, linked twice 409, bad body 400', async () => {
    const unknown = await t.admin.post(`${PROJECTS}/app/environments`, { environment: 'mars' });
    expect(expectErrorRecord(unknown, 400, 'ValidationError').details).toEqual([
      { path: '/body/environment', message: 'Could not find environment with name mars' },
    ]);
    expectErrorRecord(
      await t.admin.post(`${PROJECTS}/app/environments`, { environment: 'development' }),
      409,
      'NameExistsError',
    );
    expectErrorRecord(
      await t.admin.post(`${PROJECTS}/app/environments`, { env: 'development' }),
      400,
      'ValidationError',
    );
  });

  it("unlinks: removes the project's feature rows and strategies there, and only those", async () => {
    const segment = await t.admin
      .post('/api/admin/segments', { name: 'unlink-seg', constraints: [] })
      .expect(201);
    await insertRawFeature(t, {
      name: 'app-b',
      project: 'app',
      environments: { production: true, development: false },
    });
    await insertRawFeature(t, {
      name: 'neighbour-b',
      project: 'neighbour',
      environments: { production: true },
    });
    const gone = await insertRawStrategy(t, {
      feature: 'app-b',
      environment: 'production',
      segments: [segment.body.id],
    });
    await insertRawStrategy(t, { feature: 'app-b', environment: 'development' });
    await insertRawStrategy(t, {
      feature: 'neighbour-b',
      environment: 'production',
      segments: [segment.body.id],
    });

    await t.admin.get(PROJECTS).expect(200);
    const unlink = await t.sql.measure(() =>
      t.admin.delete(`${PROJECTS}/app/environments/production`).expect(204),
    );
    expectInOneTransaction(unlink.statements, [
      /DELETE FROM .?feature_strategies/,
      /DELETE FROM .?feature_environments/,
      /DELETE FROM .?project_environments/,
    ]);
    expect((await t.admin.get(`${PROJECTS}/app`)).body.environments).toEqual([
      'development',
      'staging',
    ]);
    expect(await featureEnvironmentRows(t, ['app-b', 'neighbour-b'])).toEqual([
      'app-b/development=false',
      'neighbour-b/production=true',
    ]);
    expect(await countRows(t, 'feature_strategies WHERE id = ?', [gone])).toBe(0);
    expect(await countRows(t, 'feature_strategy_segments WHERE strategy_id = ?', [gone])).toBe(0);
    expect(await countRows(t, `feature_strategies WHERE feature_name = 'app-b'`)).toBe(1);
    expect(await countRows(t, `feature_strategies WHERE feature_name = 'neighbour-b'`)).toBe(1);

    // Linking again gives the features fresh, disabled rows.
    await t.admin.post(`${PROJECTS}/app/environments`, { environment: 'production' }).expect(201);
    expect(await featureEnvironmentRows(t, ['app-b'])).toEqual([
      'app-b/development=false',
      'app-b/production=false',
    ]);
  });

  it('answers unlink errors with 404', async () => {
    const env = await t.admin.delete(`${PROJECTS}/app/environments/mars`);
    expect(expectErrorRecord(env, 404, 'NotFoundError').message).toBe(
      'Could not find environment with name mars',
    );
    await t.admin.post('/api/admin/environments', { name: 'lonely', type: 'test' }).expect(201);
    // A new environment is linked to no project.
    const notLinked = await t.admin.delete(`${PROJECTS}/app/environments/lonely`);
    expect(expectErrorRecord(notLinked, 404, 'NotFoundError').message).toBe(
      'The environment lonely is not linked to project app',
    );
  });
});

describe('project permissions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lets any admin-API token read', async () => {
    const viewer = await serviceTokenWith(t, []);
    await t.as(viewer).get(PROJECTS).expect(200);
    await t.as(viewer).get(`${PROJECTS}/default`).expect(200);
  });

  it('requires CREATE_, UPDATE_ and DELETE_PROJECT; linking needs UPDATE_PROJECT', async () => {
    const none = await serviceTokenWith(t, [{ name: 'CREATE_ENVIRONMENT' }]);
    const cases: Array<[string, () => ReturnType<TestApp['admin']['get']>]> = [
      ['CREATE_PROJECT', () => t.as(none).post(PROJECTS, { id: 'x', name: 'X' })],
      ['UPDATE_PROJECT', () => t.as(none).put(`${PROJECTS}/default`, { name: 'X' })],
      ['DELETE_PROJECT', () => t.as(none).delete(`${PROJECTS}/default`)],
      [
        'UPDATE_PROJECT',
        () => t.as(none).post(`${PROJECTS}/default/environments`, { environment: 'x' }),
      ],
      ['UPDATE_PROJECT', () => t.as(none).delete(`${PROJECTS}/default/environments/development`)],
    ];
    for (const [permission, call] of cases) {
      const record = expectErrorRecord(await call(), 403, 'PermissionError');
      expect(record).toEqual(expect.objectContaining({ permissions: [permission] }));
    }

    const creator = await serviceTokenWith(t, [{ name: 'CREATE_PROJECT' }]);
    await t.as(creator).post(PROJECTS, { id: 'svc', name: 'Svc' }).expect(201);
    const updater = await serviceTokenWith(t, [{ name: 'UPDATE_PROJECT' }]);
    await t.as(updater).put(`${PROJECTS}/svc`, { name: 'Service' }).expect(200);
    await t.as(updater).delete(`${PROJECTS}/svc/environments/production`).expect(204);
    await t
      .as(updater)
      .post(`${PROJECTS}/svc/environments`, { environment: 'production' })
      .expect(201);
    expectErrorRecord(await t.as(updater).delete(`${PROJECTS}/svc`), 403, 'PermissionError');
    const deleter = await serviceTokenWith(t, [{ name: 'DELETE_PROJECT' }]);
    await t.as(deleter).delete(`${PROJECTS}/svc`).expect(204);
  });
});
