import { createFeature, featureUrl } from './feature-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

/**
 * GET /api/admin/search/events in both of its forms: the plain values our own clients send, and
 * Unleash's operator syntax that its admin UI's event log sends (`from=IS:<day>`,
 * `type=IS_ANY_OF:a,b`, `createdBy=IS_ANY_OF:<user ids>`).
 */
describe('event search with Unleash operators', () => {
  let t: TestApp;
  let cookie: string;
  let adaId: number;
  const today = new Date().toISOString().slice(0, 10);
  const dayAfter = (day: string, days: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  const search = (query: string) => t.admin.get(`/api/admin/search/events?${query}`).expect(200);
  const types = (res: { body: { events: Array<{ type: string }> } }) =>
    res.body.events.map((e) => e.type);

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin
      .post('/api/admin/user-admin', {
        name: 'Ada',
        username: 'ada',
        rootRole: 1,
        password: 'ada password 12345',
      })
      .expect(201);
    const users = await t.admin.get('/api/admin/user-admin').expect(200);
    adaId = users.body.users.find((u: { username: string }) => u.username === 'ada').id;
    const login = await t.http
      .post('/auth/simple/login')
      .send({ username: 'ada', password: 'ada password 12345' })
      .expect(200);
    cookie = ([login.headers['set-cookie']].flat()[0] as string).split(';')[0];

    // By the admin token: one feature in default, one in a second project.
    await t.admin.post('/api/admin/projects', { id: 'second', name: 'Second' }).expect(201);
    await createFeature(t, 'by-token');
    await t.admin
      .post('/api/admin/projects/second/features', { name: 'in-second', type: 'release' })
      .expect(201);
    // By Ada: a feature, toggled on in development.
    await t.http
      .post('/api/admin/projects/default/features')
      .set('Cookie', cookie)
      .send({ name: 'by-ada', type: 'release' })
      .expect(201);
    await t.http
      .post(`${featureUrl('by-ada')}/environments/development/on`)
      .set('Cookie', cookie)
      .set('Content-Type', 'application/json')
      .expect(204);
  });
  afterAll(() => t.close());

  it('answers {events, total}, newest first, for the query the event log sends on opening', async () => {
    const res = await search(`offset=0&limit=25&from=IS:${dayAfter(today, -30)}&to=IS:${today}`);
    expect(Object.keys(res.body).sort()).toEqual(['events', 'total']);
    expect(res.body.total).toBeGreaterThanOrEqual(4);
    const ids = res.body.events.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(types(res).slice(0, 2)).toEqual(['feature-environment-enabled', 'feature-created']);
  });

  it('takes a day range: to=IS:<day> runs through that day, from=IS:<day> starts at it', async () => {
    expect((await search(`from=IS:${today}&to=IS:${today}`)).body.total).toBeGreaterThan(0);
    expect((await search(`to=IS:${dayAfter(today, -1)}`)).body.total).toBe(0);
    expect((await search(`from=IS:${dayAfter(today, 1)}`)).body.total).toBe(0);
  });

  it('filters by IS and IS_ANY_OF on type, project, feature, environment and creator ids', async () => {
    expect(types(await search('type=IS:feature-environment-enabled'))).toEqual([
      'feature-environment-enabled',
    ]);
    const created = await search('type=IS_ANY_OF:feature-created,feature-environment-enabled');
    expect(created.body.total).toBe(4);
    const second = await search('project=IS:second');
    expect(second.body.events.map((e: { featureName: string }) => e.featureName)).toContain(
      'in-second',
    );
    expect(second.body.events.every((e: { project: string }) => e.project === 'second')).toBe(true);
    const both = await search('feature=IS_ANY_OF:by-ada,in-second');
    expect(new Set(both.body.events.map((e: { featureName: string }) => e.featureName))).toEqual(
      new Set(['by-ada', 'in-second']),
    );
    expect(types(await search('environment=IS:development'))).toEqual([
      'feature-environment-enabled',
    ]);
    const ada = await search(`createdBy=IS_ANY_OF:${adaId},999999`);
    expect(types(ada).sort()).toEqual(
      ['feature-created', 'feature-environment-enabled', 'user-logged-in'].sort(),
    );
    expect(ada.body.events.every((e: { createdBy: string }) => e.createdBy === 'Ada')).toBe(true);
  });

  it('keeps the plain forms: a value, a creator name, date-times with a zone', async () => {
    expect((await search('type=feature-created&project=second')).body.total).toBe(1);
    expect(types(await search('feature=by-ada&createdBy=Ada'))).toEqual([
      'feature-environment-enabled',
      'feature-created',
    ]);
    const now = new Date();
    const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    expect((await search(`from=${encodeURIComponent(hourAgo)}&feature=by-ada`)).body.total).toBe(2);
    expect((await search(`to=${encodeURIComponent(hourAgo)}`)).body.total).toBe(0);
  });

  it('lists the users who wrote events for the "Created by" filter', async () => {
    const res = await t.admin.get('/api/admin/event-creators').expect(200);
    expect(res.body).toContainEqual({ id: adaId, name: 'Ada' });
    expect(res.body.every((c: { id: unknown }) => typeof c.id === 'number')).toBe(true);
  });

  it.each([
    ['an unknown operator', 'type=INCLUDE:feature-created', 'type'],
    ['a negating operator Unleash does not offer here', 'project=IS_NOT:default', 'project'],
    ['no value after the operator', 'feature=IS_ANY_OF:', 'feature'],
    ['a creator id that is not a number', 'createdBy=IS:ada', 'createdBy'],
    ['a date range operator other than IS', 'from=IS_BEFORE:2026-01-01', 'from'],
    ['an impossible day', 'to=IS:2026-02-30', 'to'],
    ['two days', 'from=IS:2026-01-01,2026-01-02', 'from'],
    ['a date-time without a zone', 'from=2026-01-01T00:00:00', 'from'],
  ])('answers 400 naming the field for %s', async (_what, query, field) => {
    const res = await t.admin.get(`/api/admin/search/events?${query}`);
    const record = expectErrorRecord(res, 400, 'ValidationError');
    expect(record.details?.map((d) => d.path)).toEqual([`/query/${field}`]);
  });

  it('refuses more than 100 values in one filter', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `f${i}`).join(',');
    const res = await t.admin.get(`/api/admin/search/events?feature=IS_ANY_OF:${many}`);
    expectErrorRecord(res, 400, 'ValidationError');
  });

  it('sends two statements per page, whatever the page size or the number of values', async () => {
    const count = async (query: string) =>
      (await t.sql.measure(() => search(query))).statements.filter((sql) =>
        /\bFROM events\b/.test(sql),
      ).length;
    expect(await count('limit=1&type=IS:feature-created')).toBe(2);
    const manyTypes = Array.from({ length: 50 }, (_, i) => `type-${i}`).join(',');
    expect(
      await count(
        `limit=1000&type=IS_ANY_OF:feature-created,${manyTypes}&from=IS:${dayAfter(today, -30)}&to=IS:${today}&createdBy=IS_ANY_OF:${adaId},1`,
      ),
    ).toBe(2);
  });
});
