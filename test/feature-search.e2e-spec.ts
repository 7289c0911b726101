import { create } from './export-fixtures';
import { insertBulkFeatures } from './fixtures/bulk-features';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

const SEARCH = '/api/admin/search/features';
const FEATURES = (project: string) => `/api/admin/projects/${project}/features`;

/** The names a search answers, in page order, and its total. */
async function search(t: TestApp, query: string): Promise<{ names: string[]; total: number }> {
  const res = await t.admin.get(`${SEARCH}?${query}`).expect(200);
  return { names: res.body.features.map((f: { name: string }) => f.name), total: res.body.total };
}

describe('feature search (GET /api/admin/search/features)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await create(t, '/api/admin/projects', { id: 'shop', name: 'Shop' });
    await create(t, '/api/admin/tag-types', { name: 'team' });
    const segment = (await create(t, '/api/admin/segments', { name: 'beta', constraints: [] }))
      .body;
    // Created in this order, a few milliseconds apart, so createdAt orders them.
    const specs: Array<[string, string, Record<string, unknown>]> = [
      ['default', 'alpha-checkout', { type: 'release', description: 'New checkout page' }],
      ['default', 'beta-search', { type: 'experiment', description: 'Search ranking test' }],
      ['default', 'gamma_ops', { type: 'operational' }],
      ['shop', 'shop-banner', { type: 'release', description: 'Banner on the CHECKOUT' }],
      ['shop', 'shop-kill', { type: 'kill-switch' }],
    ];
    for (const [project, name, body] of specs) {
      await create(t, FEATURES(project), { name, ...body });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await t.admin
      .post('/api/admin/features/gamma_ops/tags', { type: 'team', value: 'payments' })
      .expect(201);
    await t.admin
      .post('/api/admin/features/shop-kill/tags', { type: 'simple', value: 'legacy' })
      .expect(201);
    await t.admin
      .post('/api/admin/features/alpha-checkout/tags', { type: 'team', value: 'web' })
      .expect(201);
    await t.admin
      .patch(`${FEATURES('default')}/beta-search`, [{ op: 'replace', path: '/stale', value: true }])
      .expect(200);
    await t.admin
      .post(`${FEATURES('default')}/alpha-checkout/environments/production/on`)
      .expect(204);
    await t.admin
      .post(`${FEATURES('default')}/alpha-checkout/environments/production/strategies`, {
        name: 'default',
        segments: [segment.id],
      })
      .expect(201);
    await t.admin
      .post(`${FEATURES('default')}/beta-search/dependencies`, { feature: 'alpha-checkout' })
      .expect(201);
    await t.admin.delete(`${FEATURES('shop')}/shop-kill`).expect(204);
  });
  afterAll(() => t.close());

  it('answers the active features, oldest first by default, in the shape the UI reads', async () => {
    const res = await t.admin.get(SEARCH).expect(200);
    expect(res.body.total).toBe(4);
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual([
      'alpha-checkout',
      'beta-search',
      'gamma_ops',
      'shop-banner',
    ]);
    const alpha = res.body.features[0];
    expect(alpha).toEqual({
      name: 'alpha-checkout',
      description: 'New checkout page',
      dependencyType: 'parent',
      type: 'release',
      project: 'default',
      stale: false,
      favorite: false,
      impressionData: false,
      createdAt: expect.any(String),
      archivedAt: null,
      lastSeenAt: null,
      createdBy: { id: 0, name: 'unknown', imageUrl: '' },
      environments: [
        expect.objectContaining({
          name: 'development',
          enabled: false,
          hasStrategies: false,
          type: 'development',
        }),
        expect.objectContaining({
          name: 'production',
          enabled: true,
          hasStrategies: true,
          hasEnabledStrategies: true,
          type: 'production',
          sortOrder: 200,
        }),
      ],
      segments: ['beta'],
      tags: [{ type: 'team', value: 'web' }],
      lifecycle: { stage: 'live', enteredStageAt: expect.any(String) },
    });
    expect(res.body.features[1]).toEqual(
      expect.objectContaining({ dependencyType: 'child', stale: true }),
    );
  });

  it('filters by project with IS, IS_NOT, IS_ANY_OF and IS_NONE_OF', async () => {
    expect((await search(t, 'project=IS:shop')).names).toEqual(['shop-banner']);
    expect((await search(t, 'project=IS_NOT:shop')).total).toBe(3);
    expect((await search(t, 'project=IS_ANY_OF:shop,default')).total).toBe(4);
    expect((await search(t, 'project=IS_NONE_OF:shop,default')).total).toBe(0);
    expect((await search(t, 'project=IS:nowhere')).names).toEqual([]);
  });

  it('filters by tag with the INCLUDE family', async () => {
    expect((await search(t, 'tag=INCLUDE:team:payments')).names).toEqual(['gamma_ops']);
    expect((await search(t, 'tag=INCLUDE_ANY_OF:team:payments,team:web')).names).toEqual([
      'alpha-checkout',
      'gamma_ops',
    ]);
    expect((await search(t, 'tag=INCLUDE_ALL_OF:team:payments,team:web')).names).toEqual([]);
    expect((await search(t, 'tag=DO_NOT_INCLUDE:team:payments')).names).toEqual([
      'alpha-checkout',
      'beta-search',
      'shop-banner',
    ]);
    expect((await search(t, 'tag=EXCLUDE_IF_ANY_OF:team:payments,team:web')).total).toBe(2);
  });

  it('filters by type, state, lifecycle and archived', async () => {
    expect((await search(t, 'type=IS:release')).names).toEqual(['alpha-checkout', 'shop-banner']);
    expect((await search(t, 'type=IS_NONE_OF:release,experiment')).names).toEqual(['gamma_ops']);
    expect((await search(t, 'state=IS:stale')).names).toEqual(['beta-search']);
    expect((await search(t, 'state=IS_NOT:stale')).total).toBe(3);
    expect((await search(t, 'state=IS:potentially-stale')).total).toBe(0);
    expect((await search(t, 'lifecycle=IS:live')).names).toEqual(['alpha-checkout']);
    expect((await search(t, 'lifecycle=IS_ANY_OF:initial,live')).total).toBe(4);
    expect((await search(t, 'archived=IS:true')).names).toEqual(['shop-kill']);
    expect((await search(t, 'archived=IS:true&lifecycle=IS:archived')).names).toEqual([
      'shop-kill',
    ]);
    const archived = (await t.admin.get(`${SEARCH}?archived=IS:true`).expect(200)).body.features[0];
    expect(archived.archivedAt).toEqual(expect.any(String));
  });

  it('filters by createdAt and createdBy', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await search(t, `createdAt=IS_ON_OR_AFTER:${today}`)).total).toBe(4);
    expect((await search(t, `createdAt=IS_BEFORE:${today}`)).total).toBe(0);
    expect((await search(t, 'createdAt=IS_BEFORE:2999-01-01')).total).toBe(4);
    // No feature has a creator (API tokens are nobody).
    expect((await search(t, 'createdBy=IS:1')).total).toBe(0);
    expect((await search(t, 'createdBy=IS_NOT:1')).total).toBe(4);
  });

  it("filters by lastSeenAt, as the project page's clean-up reminder asks (never seen: neither)", async () => {
    const [seen] = (await search(t, 'limit=1')).names;
    await t.dataSource.query(
      `UPDATE feature_environments SET last_seen_at = '2026-01-10 12:00:00.000'
        WHERE feature_name = ? AND environment_name = 'development'`,
      [seen],
    );
    try {
      expect(await search(t, 'lastSeenAt=IS_BEFORE:2026-01-11')).toEqual({
        names: [seen],
        total: 1,
      });
      expect((await search(t, 'lastSeenAt=IS_BEFORE:2026-01-10')).total).toBe(0);
      expect((await search(t, 'lastSeenAt=IS_ON_OR_AFTER:2026-01-10')).names).toEqual([seen]);
      expect((await search(t, 'lastSeenAt=IS_ON_OR_AFTER:2026-01-11')).total).toBe(0);
      const bad = await t.admin.get(`${SEARCH}?lastSeenAt=IS:2026-01-10`);
      expect(expectErrorRecord(bad, 400, 'ValidationError').details?.[0].path).toBe(
        '/query/lastSeenAt',
      );
    } finally {
      await t.dataSource.query(
        `UPDATE feature_environments SET last_seen_at = NULL WHERE feature_name = ?`,
        [seen],
      );
    }
  });

  it('free text matches names, descriptions and tags, case-insensitively, any of the terms', async () => {
    expect((await search(t, 'query=checkout')).names).toEqual(['alpha-checkout', 'shop-banner']);
    expect((await search(t, 'query=PAYMENTS')).names).toEqual(['gamma_ops']);
    expect((await search(t, 'query=ranking,banner')).names).toEqual(['beta-search', 'shop-banner']);
    // LIKE wildcards in the text are literal characters.
    expect((await search(t, 'query=a_o')).names).toEqual(['gamma_ops']);
    expect((await search(t, 'query=%25')).names).toEqual([]);
  });

  it('sorts, pages and combines filters', async () => {
    expect((await search(t, 'sortBy=name&sortOrder=desc')).names).toEqual([
      'shop-banner',
      'gamma_ops',
      'beta-search',
      'alpha-checkout',
    ]);
    expect((await search(t, 'sortBy=createdAt&sortOrder=desc&limit=2&offset=1')).names).toEqual([
      'gamma_ops',
      'beta-search',
    ]);
    expect(await search(t, 'limit=2&offset=2')).toEqual({
      names: ['gamma_ops', 'shop-banner'],
      total: 4,
    });
    expect(await search(t, 'offset=10')).toEqual({ names: [], total: 4 });
    expect((await search(t, 'sortBy=type')).names).toEqual([
      'beta-search',
      'gamma_ops',
      'alpha-checkout',
      'shop-banner',
    ]);
    expect((await search(t, 'sortBy=environment:production&sortOrder=desc')).names[0]).toBe(
      'alpha-checkout',
    );
    expect((await search(t, 'sortBy=stale&sortOrder=desc')).names[0]).toBe('beta-search');
    expect((await search(t, 'sortBy=project&sortOrder=desc')).names[0]).toBe('shop-banner');
    expect(
      await search(
        t,
        'project=IS:default&type=IS:release&query=checkout&favoritesFirst=true&sortBy=lastSeenAt',
      ),
    ).toEqual({ names: ['alpha-checkout'], total: 1 });
  });

  it.each([
    ['project=LIKE:default', '/query/project'],
    ['project=default', '/query/project'],
    ['project=IS:', '/query/project'],
    ['tag=IS:simple:x', '/query/tag'],
    ['tag=INCLUDE:novalue', '/query/tag'],
    ['type=IS:feature', '/query/type'],
    ['state=IS:old', '/query/state'],
    ['lifecycle=IS:done', '/query/lifecycle'],
    ['archived=IS_NOT:true', '/query/archived'],
    ['createdAt=IS:2026-01-01', '/query/createdAt'],
    ['createdAt=IS_BEFORE:2026-02-30', '/query/createdAt'],
    ['createdBy=IS:someone', '/query/createdBy'],
    ['sortBy=colour', '/query/sortBy'],
    ['sortOrder=up', '/query/sortOrder'],
    ['favoritesFirst=yes', '/query/favoritesFirst'],
    ['limit=0', '/query/limit'],
    ['limit=1001', '/query/limit'],
    ['offset=-1', '/query/offset'],
    ['segment=IS:beta', '/query/segment'],
    ['segment=INCLUDE:', '/query/segment'],
    ['status=production', '/query/status'],
    ['status=production:on', '/query/status'],
    ['status=:enabled', '/query/status'],
    ['lastSeenAt=IS:2026-01-01', '/query/lastSeenAt'],
    ['lastSeenAt=IS_BEFORE:yesterday', '/query/lastSeenAt'],
    ['colour=IS:red', '/query/colour'],
    ['project=IS:a&project=IS:b', '/query/project'],
  ])('answers 400 for %s', async (query, path) => {
    const res = await t.admin.get(`${SEARCH}?${query}`);
    const record = expectErrorRecord(res, 400, 'ValidationError');
    expect(record.details?.map((d) => d.path)).toContain(path);
  });

  it('answers 401 without a token', async () => {
    expectErrorRecord(await t.http.get(SEARCH), 401, 'AuthenticationRequired');
  });

  it('filters by segment with the tag operators (segments used by any strategy)', async () => {
    // alpha-checkout's production strategy uses beta; nothing uses the segment 'unused'.
    await create(t, '/api/admin/segments', { name: 'unused', constraints: [] });
    const all = ['alpha-checkout', 'beta-search', 'gamma_ops', 'shop-banner'];
    expect(await search(t, 'segment=INCLUDE:beta')).toEqual({
      names: ['alpha-checkout'],
      total: 1,
    });
    expect((await search(t, 'segment=INCLUDE_ANY_OF:beta,unused')).names).toEqual([
      'alpha-checkout',
    ]);
    expect((await search(t, 'segment=INCLUDE_ALL_OF:beta,unused')).names).toEqual([]);
    expect((await search(t, 'segment=INCLUDE:nobody')).names).toEqual([]);
    expect((await search(t, 'segment=DO_NOT_INCLUDE:beta')).names).toEqual(
      all.filter((n) => n !== 'alpha-checkout'),
    );
    expect((await search(t, 'segment=EXCLUDE_IF_ANY_OF:beta,unused')).names).toEqual(
      all.filter((n) => n !== 'alpha-checkout'),
    );
    expect((await search(t, 'segment=EXCLUDE_ALL:beta,unused')).names).toEqual(all);
  });

  it('filters by environment status, any of the listed states (repeated or comma-separated)', async () => {
    // Only alpha-checkout is enabled anywhere (production).
    expect(await search(t, 'status=production:enabled')).toEqual({
      names: ['alpha-checkout'],
      total: 1,
    });
    expect((await search(t, 'status=production:disabled')).names).toEqual([
      'beta-search',
      'gamma_ops',
      'shop-banner',
    ]);
    expect(
      (await search(t, 'status=production:enabled&status=development:disabled')).names,
    ).toEqual(['alpha-checkout', 'beta-search', 'gamma_ops', 'shop-banner']);
    expect((await search(t, 'status=production:enabled,development:enabled')).names).toEqual([
      'alpha-checkout',
    ]);
    expect((await search(t, 'status=nowhere:enabled')).names).toEqual([]);
  });

  it('filters by lastSeenAt (the latest of its environments); never seen matches neither', async () => {
    // There is no metrics route; the rows are written as metrics would.
    const seen = (feature: string, env: string, at: string) =>
      t.dataSource.query(
        `UPDATE feature_environments SET last_seen_at = ? WHERE feature_name = ? AND environment_name = ?`,
        [at, feature, env],
      );
    await seen('beta-search', 'development', '2026-03-01 10:00:00.000');
    await seen('beta-search', 'production', '2026-05-01 10:00:00.000');
    await seen('gamma_ops', 'development', '2026-04-01 00:00:00.000');
    try {
      expect((await search(t, 'lastSeenAt=IS_BEFORE:2026-04-01')).names).toEqual([]);
      expect((await search(t, 'lastSeenAt=IS_BEFORE:2026-04-02')).names).toEqual(['gamma_ops']);
      expect((await search(t, 'lastSeenAt=IS_ON_OR_AFTER:2026-04-01')).names).toEqual([
        'beta-search',
        'gamma_ops',
      ]);
      expect((await search(t, 'lastSeenAt=IS_ON_OR_AFTER:2026-05-02')).names).toEqual([]);
    } finally {
      await t.dataSource.query(`UPDATE feature_environments SET last_seen_at = NULL`);
    }
  });

  it("puts the signed-in user's favorites first with favoritesFirst=true, each part in sortBy order", async () => {
    await t.admin
      .post('/api/admin/user-admin', {
        username: 'fan',
        rootRole: 1,
        password: 'fan password 12345',
      })
      .expect(201);
    const login = await t.http
      .post('/auth/simple/login')
      .send({ username: 'fan', password: 'fan password 12345' })
      .expect(200);
    const cookie = ([login.headers['set-cookie']].flat()[0] as string).split(';')[0];
    for (const name of ['gamma_ops', 'alpha-checkout']) {
      await t.http
        .post(`${FEATURES('default')}/${name}/favorites`)
        .set('Cookie', cookie)
        .set('Content-Type', 'application/json')
        .send({})
        .expect(204);
    }
    const asFan = async (query: string) =>
      (await t.http.get(`${SEARCH}?${query}`).set('Cookie', cookie).expect(200)).body;
    const first = await asFan('favoritesFirst=true&sortBy=name&sortOrder=desc');
    expect(first.features.map((f: { name: string }) => f.name)).toEqual([
      'gamma_ops',
      'alpha-checkout',
      'shop-banner',
      'beta-search',
    ]);
    expect(first.features.map((f: { favorite: boolean }) => f.favorite)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(first.total).toBe(4);
    // Paging keeps the order; without the flag, favorites take their usual place.
    expect(
      (await asFan('favoritesFirst=true&sortBy=name&sortOrder=desc&offset=1&limit=2')).features.map(
        (f: { name: string }) => f.name,
      ),
    ).toEqual(['alpha-checkout', 'shop-banner']);
    expect(
      (await asFan('favoritesFirst=false&sortBy=name&sortOrder=desc')).features.map(
        (f: { name: string }) => f.name,
      ),
    ).toEqual(['shop-banner', 'gamma_ops', 'beta-search', 'alpha-checkout']);
    // A token has no favorites: the flag changes nothing.
    expect((await search(t, 'favoritesFirst=true&sortBy=name&sortOrder=desc')).names).toEqual([
      'shop-banner',
      'gamma_ops',
      'beta-search',
      'alpha-checkout',
    ]);
  });
});

describe('feature search: statements per page', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await create(t, '/api/admin/context', {
      name: 'region',
      legalValues: [{ value: 'eu' }, { value: 'us' }],
    });
    await create(t, '/api/admin/tag-types', { name: 'team' });
    const segmentIds: number[] = [];
    for (const name of ['s1', 's2']) {
      segmentIds.push((await create(t, '/api/admin/segments', { name, constraints: [] })).body.id);
    }
    await create(t, '/api/admin/projects', { id: 'small', name: 'Small' });
    await create(t, '/api/admin/projects', { id: 'large', name: 'Large' });
    const bulk = {
      environments: ['development', 'production'],
      strategyEnvironment: 'development',
      segmentIds,
      contextField: 'region',
      tagTypes: ['simple', 'team'] as [string, string],
      dependencyEvery: 10,
    };
    const query = (sql: string, params?: unknown[]) => t.dataSource.query(sql, params);
    await insertBulkFeatures(query, { ...bulk, project: 'small', prefix: 'small', count: 5 });
    await insertBulkFeatures(query, { ...bulk, project: 'large', prefix: 'large', count: 600 });
  });
  afterAll(() => t.close());

  it('is the same for a page of 5 of 5 features and a page of 500 of 600, with every filter', async () => {
    const filters =
      'tag=INCLUDE_ANY_OF:simple:small,simple:large&query=-0&lifecycle=IS_NOT:completed&sortBy=lastSeenAt' +
      '&segment=INCLUDE_ANY_OF:s1,s2&status=development:enabled,development:disabled&favoritesFirst=true';
    const small = await t.sql.measure(() =>
      t.admin.get(`${SEARCH}?project=IS:small&limit=5&${filters}`).expect(200),
    );
    const large = await t.sql.measure(() =>
      t.admin.get(`${SEARCH}?project=IS:large&limit=500&${filters}`).expect(200),
    );
    expect(small.result.body.features).toHaveLength(5);
    expect(large.result.body.features).toHaveLength(500);
    expect(large.result.body.total).toBe(600);
    expect(large.result.body.features[0].segments.length).toBeGreaterThan(0);
    // Token check, page with its total, the page's rows (feature, environments, environment
    // order, strategy counts, tags, dependencies, lifecycle), segment links and segment names.
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThanOrEqual(11);
  });

  it('is the same for a project page by creation time (index order: page, then count)', async () => {
    const small = await t.sql.measure(() =>
      t.admin.get(`${SEARCH}?project=IS:small&limit=5&sortOrder=desc`).expect(200),
    );
    const large = await t.sql.measure(() =>
      t.admin.get(`${SEARCH}?project=IS:large&limit=500&sortOrder=desc`).expect(200),
    );
    expect(small.result.body.features).toHaveLength(5);
    expect(large.result.body.features).toHaveLength(500);
    expect(large.result.body.total).toBe(600);
    // Newest first, ties by name in the same direction: the pages follow one another.
    const next = await t.admin
      .get(`${SEARCH}?project=IS:large&limit=500&offset=500&sortOrder=desc`)
      .expect(200);
    expect(next.body.total).toBe(600);
    const names = [...large.result.body.features, ...next.body.features].map(
      (f: { name: string }) => f.name,
    );
    expect(new Set(names).size).toBe(600);
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThanOrEqual(12);
  });
});
