import { envUrl, featureUrl } from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';
import { testDatabaseKind } from './support/test-database';

const CLONE = (source: string) => `/api/admin/environments/${source}/clone`;
// Strategies copied by a clone get time-ordered UUIDv7 ids (see EnvironmentCloneService).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Row = Record<string, unknown>;

/** Rows of one environment, without the columns a copy must change (ids, the environment). */
async function featureEnvironmentRows(t: TestApp, env: string): Promise<Row[]> {
  return t.dataSource.query(
    `SELECT feature_name, enabled, variants FROM feature_environments
     WHERE environment_name = ? ORDER BY feature_name`,
    [env],
  );
}

async function strategyRows(t: TestApp, env: string): Promise<Row[]> {
  const rows: Row[] = await t.dataSource.query(
    `SELECT fs.id, fs.feature_name, fs.strategy_name, fs.title, fs.parameters, fs.constraints,
            fs.variants, fs.sort_order, fs.disabled, fs.created_at
     FROM feature_strategies fs WHERE fs.environment_name = ?
     ORDER BY fs.feature_name, fs.sort_order, fs.strategy_name, fs.title`,
    [env],
  );
  const links: Row[] = await t.dataSource.query(
    `SELECT fss.strategy_id, fss.segment_id FROM feature_strategy_segments fss
     JOIN feature_strategies fs ON fs.id = fss.strategy_id WHERE fs.environment_name = ?
     ORDER BY fss.segment_id`,
    [env],
  );
  return rows.map(({ id, ...row }) => ({
    ...row,
    created_at: String(
      row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
    ),
    segments: links
      .filter((link) => link.strategy_id === id)
      .map((link) => Number(link.segment_id)),
  }));
}

async function strategyIds(t: TestApp, env: string): Promise<string[]> {
  const rows: Array<{ id: string }> = await t.dataSource.query(
    `SELECT id FROM feature_strategies WHERE environment_name = ?`,
    [env],
  );
  return rows.map((row) => row.id);
}

async function linkedProjects(t: TestApp, env: string): Promise<string[]> {
  const rows: Array<{ project_id: string }> = await t.dataSource.query(
    `SELECT project_id FROM project_environments WHERE environment_name = ? ORDER BY project_id`,
    [env],
  );
  return rows.map((row) => row.project_id);
}

async function permissionRows(t: TestApp, env: string): Promise<Row[]> {
  return t.dataSource.query(
    `SELECT role_id, permission FROM role_permissions WHERE environment_name = ? ORDER BY role_id, permission`,
    [env],
  );
}

async function count(t: TestApp, sql: string, params: unknown[]): Promise<number> {
  const [row] = await t.dataSource.query(sql, params);
  return Number(Object.values(row as Row)[0]);
}

/**
 * Builds, through the admin API, a source environment (`development`) that uses every kind of
 * configuration a clone copies: two projects, enabled and disabled and archived features, variants
 * with overrides, strategies with constraints, variants, segments, titles and a disabled one, and
 * a role limited to the environment.
 */
async function buildSource(t: TestApp): Promise<{ roleId: number; segments: number[] }> {
  await t.admin
    .post('/api/admin/context', {
      name: 'region',
      legalValues: [{ value: 'eu' }, { value: 'us', description: 'United States' }],
    })
    .expect(201);
  const seg1 = await t.admin
    .post('/api/admin/segments', {
      name: 'beta-testers',
      constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }],
    })
    .expect(201);
  const seg2 = await t.admin
    .post('/api/admin/segments', { name: 'staff', constraints: [] })
    .expect(201);
  await t.admin.post('/api/admin/projects', { id: 'other', name: 'Other project' }).expect(201);

  for (const name of ['checkout', 'search', 'legacy']) {
    await t.admin.post('/api/admin/projects/default/features', { name }).expect(201);
  }
  await t.admin.post('/api/admin/projects/other/features', { name: 'other-feature' }).expect(201);

  await t.admin
    .post(`${envUrl('checkout', 'development')}/strategies`, {
      name: 'flexibleRollout',
      title: 'Half of Europe',
      sortOrder: 1,
      parameters: { rollout: '50', stickiness: 'userId', groupId: 'checkout' },
      constraints: [
        { contextName: 'region', operator: 'IN', values: ['eu'], caseInsensitive: true },
        { contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['web'], inverted: true },
      ],
      variants: [
        {
          name: 'a',
          weight: 500,
          weightType: 'variable',
          stickiness: 'userId',
          payload: { type: 'string', value: 'A' },
        },
        { name: 'b', weight: 500, weightType: 'variable', stickiness: 'userId' },
      ],
      segments: [seg1.body.id, seg2.body.id],
    })
    .expect(201);
  await t.admin
    .post(`${envUrl('checkout', 'development')}/strategies`, {
      name: 'default',
      title: 'Switched off for now',
      disabled: true,
      sortOrder: 2,
    })
    .expect(201);
  await t.admin
    .post(`${envUrl('search', 'development')}/strategies`, {
      name: 'userWithId',
      parameters: { userIds: 'alice,bob' },
      segments: [seg2.body.id],
    })
    .expect(201);
  await t.admin
    .post(`${envUrl('legacy', 'development')}/strategies`, { name: 'default' })
    .expect(201);
  await t.admin
    .post(`${envUrl('other-feature', 'development', 'other')}/strategies`, { name: 'default' })
    .expect(201);
  // A strategy in another environment must not be copied.
  await t.admin
    .post(`${envUrl('checkout', 'production')}/strategies`, { name: 'default' })
    .expect(201);

  await t.admin
    .put(`${envUrl('checkout', 'development')}/variants`, [
      {
        name: 'blue',
        weight: 300,
        weightType: 'fix',
        stickiness: 'sessionId',
        payload: { type: 'json', value: '{"c":1}' },
        overrides: [{ contextName: 'userId', values: ['alice'] }],
      },
      { name: 'green', weight: 0, weightType: 'variable' },
    ])
    .expect(200);
  await t.admin.post(`${envUrl('checkout', 'development')}/on`).expect(204);
  await t.admin.post(`${envUrl('other-feature', 'development', 'other')}/on`).expect(204);
  await t.admin.delete(featureUrl('legacy')).expect(204);

  const role = await t.admin
    .post('/api/admin/roles', {
      name: 'Development operator',
      permissions: [
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
        { name: 'CREATE_FEATURE_STRATEGY', environment: 'development' },
        { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
        { name: 'CREATE_FEATURE' },
      ],
    })
    .expect(201);
  return { roleId: role.body.id, segments: [seg1.body.id, seg2.body.id] };
}

describe('POST /api/admin/environments/:name/clone', () => {
  let t: TestApp;
  let roleId: number;

  beforeAll(async () => {
    t = await startTestApp();
    ({ roleId } = await buildSource(t));
  });
  afterAll(() => t.close());

  it('copies every row of the source for all its projects when projects is omitted', async () => {
    const res = await t.admin.post(CLONE('development'), { name: 'qa', type: 'test' }).expect(200);
    expect(res.body).toEqual({
      name: 'qa',
      type: 'test',
      enabled: true,
      protected: false,
      sortOrder: 100,
      projectCount: 2,
      apiTokenCount: 0,
      enabledToggleCount: 2,
    });

    expect(await linkedProjects(t, 'qa')).toEqual(['default', 'other']);
    const sourceRows = await featureEnvironmentRows(t, 'development');
    expect(sourceRows.map((r) => r.feature_name)).toEqual([
      'checkout',
      'legacy',
      'other-feature',
      'search',
    ]);
    expect(await featureEnvironmentRows(t, 'qa')).toEqual(sourceRows);

    const sourceStrategies = await strategyRows(t, 'development');
    expect(sourceStrategies).toHaveLength(5);
    expect(await strategyRows(t, 'qa')).toEqual(sourceStrategies);

    const ids = await strategyIds(t, 'qa');
    const sourceIds = await strategyIds(t, 'development');
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) {
      expect(id).toMatch(UUID);
      expect(sourceIds).not.toContain(id);
    }
    expect(await permissionRows(t, 'qa')).toEqual(await permissionRows(t, 'development'));
    expect(await permissionRows(t, 'qa')).toEqual([
      { role_id: roleId, permission: 'CREATE_FEATURE_STRATEGY' },
      { role_id: roleId, permission: 'UPDATE_FEATURE_ENVIRONMENT' },
    ]);
  });

  it('shows the copy through the API as well: strategies, variants, segments, archived features', async () => {
    const source = await t.admin.get(`${envUrl('checkout', 'development')}/strategies`).expect(200);
    const copy = await t.admin.get(`${envUrl('checkout', 'qa')}/strategies`).expect(200);
    const withoutIds = (list: Array<Record<string, unknown>>) =>
      list.map(({ id: _id, ...rest }) => rest);
    expect(withoutIds(copy.body)).toEqual(withoutIds(source.body));
    expect(copy.body[1]).toEqual(
      expect.objectContaining({ disabled: true, title: 'Switched off for now' }),
    );

    const variantsSource = await t.admin
      .get(`${envUrl('checkout', 'development')}/variants`)
      .expect(200);
    await t.admin.get(`${envUrl('checkout', 'qa')}/variants`).expect(200, variantsSource.body);

    const legacy = await t.admin.get(featureUrl('legacy')).expect(200);
    expect(legacy.body.archived).toBe(true);
    expect(legacy.body.environments.map((e: { name: string }) => e.name)).toContain('qa');
  });

  it('leaves the source untouched and the two environments independent', async () => {
    const before = await strategyRows(t, 'development');
    await t.admin.post(`${envUrl('search', 'qa')}/on`).expect(204);
    const [qaStrategy] = (await t.admin.get(`${envUrl('search', 'qa')}/strategies`).expect(200))
      .body;
    await t.admin.delete(`${envUrl('search', 'qa')}/strategies/${qaStrategy.id}`).expect(204);
    expect(await strategyRows(t, 'development')).toEqual(before);
    const search = await featureEnvironmentRows(t, 'development');
    expect(search.find((r) => r.feature_name === 'search')?.enabled).toEqual(expect.anything());
    expect(Boolean(Number(search.find((r) => r.feature_name === 'search')?.enabled))).toBe(false);
    // Segments are shared, not copied; tokens are not copied.
    expect(await count(t, 'SELECT COUNT(*) AS n FROM segments', [])).toBe(2);
  });

  it('copies only the listed projects', async () => {
    const res = await t.admin
      .post(CLONE('development'), {
        name: 'only-default',
        type: 'development',
        projects: ['default'],
      })
      .expect(200);
    expect(res.body).toEqual(expect.objectContaining({ projectCount: 1, enabledToggleCount: 1 }));
    expect(await linkedProjects(t, 'only-default')).toEqual(['default']);
    const rows = await featureEnvironmentRows(t, 'only-default');
    expect(rows.map((r) => r.feature_name)).toEqual(['checkout', 'legacy', 'search']);
    const strategies = await strategyRows(t, 'only-default');
    expect(strategies.map((s) => s.feature_name)).toEqual([
      'checkout',
      'checkout',
      'legacy',
      'search',
    ]);
    expect(strategies).toEqual(
      (await strategyRows(t, 'development')).filter((s) => s.feature_name !== 'other-feature'),
    );
  });

  it('reads projects: [] like an omitted list: every project of the source', async () => {
    await t.admin
      .post(CLONE('development'), { name: 'all-by-empty', type: 'preproduction', projects: [] })
      .expect(200);
    await t.admin
      .post(CLONE('development'), { name: 'all-by-omission', type: 'preproduction' })
      .expect(200);
    const linked = await linkedProjects(t, 'development');
    expect(linked.length).toBeGreaterThan(0);
    expect(await linkedProjects(t, 'all-by-empty')).toEqual(linked);
    const rows = await featureEnvironmentRows(t, 'all-by-empty');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(await featureEnvironmentRows(t, 'all-by-omission'));
    expect(await strategyRows(t, 'all-by-empty')).toEqual(await strategyRows(t, 'all-by-omission'));
    expect(await permissionRows(t, 'all-by-empty')).toHaveLength(2);
  });

  it('gives a listed project that the source does not use a disabled row per feature', async () => {
    await t.admin.post('/api/admin/projects', { id: 'fresh', name: 'Fresh' }).expect(201);
    await t.admin.delete('/api/admin/projects/fresh/environments/development').expect(204);
    await t.admin.post('/api/admin/projects/fresh/features', { name: 'fresh-feature' }).expect(201);
    await t.admin
      .post(CLONE('development'), {
        name: 'with-fresh',
        type: 'test',
        projects: ['fresh', 'other'],
      })
      .expect(200);
    expect(await linkedProjects(t, 'with-fresh')).toEqual(['fresh', 'other']);
    const rows = await featureEnvironmentRows(t, 'with-fresh');
    expect(rows.map((r) => [r.feature_name, Number(r.enabled), r.variants])).toEqual([
      ['fresh-feature', 0, '[]'],
      ['other-feature', 1, '[]'],
    ]);
  });

  it('does not copy permissions when clonePermissions is false', async () => {
    await t.admin
      .post(CLONE('development'), { name: 'no-perms', type: 'test', clonePermissions: false })
      .expect(200);
    expect(await permissionRows(t, 'no-perms')).toEqual([]);
    expect(await strategyIds(t, 'no-perms')).toHaveLength(5);
  });

  it('carries environment permissions over to the clone only when asked', async () => {
    const token = await serviceTokenWith(t, [
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
    ]);
    await t.admin.post(CLONE('development'), { name: 'perm-yes', type: 'test' }).expect(200);
    await t.admin
      .post(CLONE('development'), { name: 'perm-no', type: 'test', clonePermissions: false })
      .expect(200);
    await t
      .as(token)
      .post(`${envUrl('search', 'development')}/on`)
      .expect(204);
    await t
      .as(token)
      .post(`${envUrl('search', 'perm-yes')}/on`)
      .expect(204);
    const denied = await t.as(token).post(`${envUrl('search', 'perm-no')}/on`);
    expect(expectErrorRecord(denied, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['UPDATE_FEATURE_ENVIRONMENT'] }),
    );
    await t.admin.post(`${envUrl('search', 'development')}/off`).expect(204);
  });

  describe('errors', () => {
    it('400 ValidationError with details for a body of the wrong shape', async () => {
      const res = await t.admin.post(CLONE('development'), {
        type: 7,
        projects: 'default',
        clonePermissions: 'yes',
        color: 'red',
      });
      const record = expectErrorRecord(res, 400, 'ValidationError');
      expect(record.details?.map((d) => d.path).sort()).toEqual([
        '/body/clonePermissions',
        '/body/color',
        '/body/name',
        '/body/projects',
        '/body/type',
      ]);
      expect(record.details?.find((d) => d.path === '/body/name')?.message).toBe(
        'name is required',
      );
    });

    it('400 for names that break the name rule, and the body is checked before the source', async () => {
      for (const name of ['has space', '.', '..', 'x'.repeat(101), '']) {
        const res = await t.admin.post(CLONE('nowhere'), { name, type: 'test' });
        expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe('/body/name');
      }
    });

    it('401 AuthenticationRequired without a token or with an unknown one', async () => {
      expectErrorRecord(
        await t.http.post(CLONE('development')).send({ name: 'x', type: 'test' }),
        401,
        'AuthenticationRequired',
      );
      expectErrorRecord(
        await t.as('*:*.unknown').post(CLONE('development'), { name: 'x', type: 'test' }),
        401,
        'AuthenticationRequired',
      );
    });

    it('403 PermissionError without CREATE_ENVIRONMENT', async () => {
      const token = await serviceTokenWith(t, [{ name: 'UPDATE_ENVIRONMENT' }]);
      const res = await t.as(token).post(CLONE('development'), { name: 'x', type: 'test' });
      expect(expectErrorRecord(res, 403, 'PermissionError')).toEqual(
        expect.objectContaining({ permissions: ['CREATE_ENVIRONMENT'] }),
      );
      const allowed = await serviceTokenWith(t, [{ name: 'CREATE_ENVIRONMENT' }]);
      await t
        .as(allowed)
        .post(CLONE('development'), { name: 'by-service', type: 'test' })
        .expect(200);
    });

    it('404 NotFoundError for an unknown source, checked before the name', async () => {
      const res = await t.admin.post(CLONE('staging'), { name: 'production', type: 'test' });
      expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
        'Could not find environment with name staging',
      );
    });

    it('409 NameExistsError for a taken name', async () => {
      const res = await t.admin.post(CLONE('development'), { name: 'production', type: 'test' });
      expectErrorRecord(res, 409, 'NameExistsError');
      expect(await strategyIds(t, 'production')).toHaveLength(1);
    });

    it('400 naming an unknown project, and nothing is created', async () => {
      const res = await t.admin.post(CLONE('development'), {
        name: 'never',
        type: 'test',
        projects: ['default', 'ghost'],
      });
      const record = expectErrorRecord(res, 400, 'ValidationError');
      expect(record.message).toContain('ghost');
      expect(record.details).toEqual([
        { path: '/body/projects/1', message: 'Could not find project with id ghost' },
      ]);
      expectErrorRecord(await t.admin.get('/api/admin/environments/never'), 404, 'NotFoundError');
    });
  });

  it('leaves nothing behind when a late step fails', async () => {
    // A trigger makes the last statement of the clone (the permission copy) fail.
    if (testDatabaseKind() === 'mysql') {
      await t.dataSource.query(
        `CREATE TRIGGER fail_doomed BEFORE INSERT ON role_permissions FOR EACH ROW
         BEGIN IF NEW.environment_name = 'doomed' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'boom'; END IF; END`,
      );
    } else {
      await t.dataSource.query(
        `CREATE TRIGGER fail_doomed BEFORE INSERT ON role_permissions
         WHEN NEW.environment_name = 'doomed' BEGIN SELECT RAISE(ABORT, 'boom'); END`,
      );
    }
    try {
      const res = await t.admin.post(CLONE('development'), { name: 'doomed', type: 'test' });
      expectErrorRecord(res, 500, 'InternalError');
    } finally {
      await t.dataSource.query('DROP TRIGGER fail_doomed');
    }
    const leftovers = await Promise.all([
      count(t, 'SELECT COUNT(*) FROM environments WHERE name = ?', ['doomed']),
      count(t, 'SELECT COUNT(*) FROM project_environments WHERE environment_name = ?', ['doomed']),
      count(t, 'SELECT COUNT(*) FROM feature_environments WHERE environment_name = ?', ['doomed']),
      count(t, 'SELECT COUNT(*) FROM feature_strategies WHERE environment_name = ?', ['doomed']),
      count(t, 'SELECT COUNT(*) FROM role_permissions WHERE environment_name = ?', ['doomed']),
      count(
        t,
        `SELECT COUNT(*) FROM feature_strategy_segments fss
         LEFT JOIN feature_strategies fs ON fs.id = fss.strategy_id WHERE fs.id IS NULL`,
        [],
      ),
    ]);
    expect(leftovers).toEqual([0, 0, 0, 0, 0, 0]);
    // The name is free again.
    await t.admin.post(CLONE('development'), { name: 'doomed', type: 'test' }).expect(200);
  });

  it('lets exactly one of several concurrent clones to one name succeed', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.admin.post(CLONE('development'), { name: 'race', type: 'test' }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    for (const loser of results.filter((r) => r.status === 409)) {
      expectErrorRecord(loser, 409, 'NameExistsError');
    }
    expect(await strategyIds(t, 'race')).toHaveLength(5);
    expect(await featureEnvironmentRows(t, 'race')).toHaveLength(4);
    expect(await permissionRows(t, 'race')).toEqual(await permissionRows(t, 'development'));
  });
});

describe('clone statement count', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function addFeatures(from: number, to: number): Promise<void> {
    for (let i = from; i < to; i++) {
      await t.admin.post('/api/admin/projects/default/features', { name: `f-${i}` }).expect(201);
      await t.admin
        .post(`${envUrl(`f-${i}`, 'development')}/strategies`, { name: 'default' })
        .expect(201);
      await t.admin
        .post(`${envUrl(`f-${i}`, 'development')}/strategies`, {
          name: 'userWithId',
          parameters: { userIds: 'a' },
        })
        .expect(201);
    }
  }

  async function measureClone(name: string): Promise<number> {
    await t.admin.get('/api/admin/environments').expect(200); // warm the token cache
    const { result, count: statements } = await t.sql.measure(() =>
      t.admin.post(CLONE('development'), { name, type: 'test' }),
    );
    expect(result.status).toBe(200);
    return statements;
  }

  it('does not grow with the number of features and strategies', async () => {
    await addFeatures(0, 2);
    const small = await measureClone('small-copy');
    await addFeatures(2, 30);
    const large = await measureClone('large-copy');
    expect(await strategyIds(t, 'large-copy')).toHaveLength(60);
    expect(large).toBe(small);
    // 16 on SQLite (one of them the project list's generation, FeatureListModel); MySQL/MariaDB
    // adds two: the strategy copy creates and drops a temporary map of old to new ids instead of
    // computing it in each of its two INSERTs (decisions-clone.md).
    expect(small).toBeLessThanOrEqual(testDatabaseKind() === 'mysql' ? 18 : 16);
  });
});
