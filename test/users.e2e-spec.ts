import { ADMIN_PASSWORD, expectErrorRecord, startTestApp, TestApp } from './support/test-app';

/** Signs in and returns the session cookie (name=value). */
async function signIn(t: TestApp, username: string, password: string): Promise<string> {
  const res = await t.http.post('/auth/simple/login').send({ username, password }).expect(200);
  const cookie = [res.headers['set-cookie']].flat()[0] as string;
  expect(cookie).toMatch(
    /^flagkeeper-session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
  );
  return cookie.split(';')[0];
}

function withCookie(t: TestApp, cookie: string) {
  return {
    get: (url: string) => t.http.get(url).set('Cookie', cookie),
    post: (url: string, body: object = {}) =>
      t.http.post(url).set('Cookie', cookie).set('Content-Type', 'application/json').send(body),
  };
}

describe('users and sign-in', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('starts with the admin user, who signs in with INIT_ADMIN_PASSWORD', async () => {
    const users = await t.admin.get('/api/admin/user-admin').expect(200);
    expect(users.body.users).toEqual([
      expect.objectContaining({ id: 1, username: 'admin', rootRole: 1, isAPI: false }),
    ]);
    expect(JSON.stringify(users.body)).not.toMatch(/password|scrypt/i);
    const cookie = await signIn(t, 'admin', ADMIN_PASSWORD);
    const res = await withCookie(t, cookie).get('/api/admin/projects').expect(200);
    expect(res.body.projects.map((p: { id: string }) => p.id)).toContain('default');
  });

  it('creates, changes and deletes users; a password is never returned', async () => {
    const created = await t.admin
      .post('/api/admin/user-admin', {
        name: 'Ada',
        username: 'ada',
        email: 'ada@example.com',
        rootRole: 2,
        password: 'correct horse battery',
      })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Ada',
      username: 'ada',
      email: 'ada@example.com',
      imageUrl: null,
      rootRole: 2,
      createdAt: expect.any(String),
      seenAt: null,
      isAPI: false,
    });
    const id = created.body.id as number;
    const updated = await t.admin
      .put(`/api/admin/user-admin/${id}`, { name: 'Ada L.', rootRole: 3 })
      .expect(200);
    expect(updated.body).toEqual(expect.objectContaining({ name: 'Ada L.', rootRole: 3 }));
    expectErrorRecord(
      await t.admin.post('/api/admin/user-admin', { username: 'ada', rootRole: 2 }),
      409,
      'NameExistsError',
    );
    expectErrorRecord(
      await t.admin.post('/api/admin/user-admin', { username: 'bob', rootRole: 999 }),
      400,
      'ValidationError',
    );
    expectErrorRecord(
      await t.admin.post('/api/admin/user-admin', {
        username: 'bob',
        rootRole: 2,
        password: 'short',
      }),
      400,
      'ValidationError',
    );
    await t.admin.delete(`/api/admin/user-admin/${id}`).expect(204);
    expectErrorRecord(await t.admin.get(`/api/admin/user-admin/${id}`), 404, 'NotFoundError');
  });

  it('answers a wrong password and an unknown user alike, with the login descriptor', async () => {
    const wrong = await t.http
      .post('/auth/simple/login')
      .send({ username: 'admin', password: 'not the password' });
    const unknown = await t.http
      .post('/auth/simple/login')
      .send({ username: 'nobody', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expectErrorRecord(res, 401, 'AuthenticationRequired');
      expect(res.body.message).toBe('Wrong username or password');
    }
    const anonymous = await t.http.get('/api/admin/projects');
    expect(anonymous.body).toEqual(
      expect.objectContaining({
        path: '/auth/simple/login',
        type: 'password',
        defaultHidden: false,
        options: [],
      }),
    );
  });

  it('gives a new random session id at every sign-in, and logout ends it', async () => {
    const first = await signIn(t, 'admin', ADMIN_PASSWORD);
    const second = await signIn(t, 'admin', ADMIN_PASSWORD);
    expect(first).not.toBe(second);
    const stored: Array<{ id_hash: string }> = await t.dataSource.query(
      'SELECT id_hash FROM user_sessions',
    );
    // Only hashes are stored.
    for (const row of stored) expect(row.id_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.map((row) => row.id_hash)).not.toContain(first.split('=')[1]);
    await withCookie(t, first).post('/logout').expect(204);
    expectErrorRecord(
      await withCookie(t, first).get('/api/admin/projects'),
      401,
      'AuthenticationRequired',
    );
    await withCookie(t, second).get('/api/admin/projects').expect(200);
  });

  it('refuses a change made with a cookie but without a JSON content type', async () => {
    const cookie = await signIn(t, 'admin', ADMIN_PASSWORD);
    const res = await t.http
      .post('/api/admin/projects')
      .set('Cookie', cookie)
      .set('Content-Type', 'text/plain')
      .send('id=x');
    expectErrorRecord(res, 415, 'ContentTypeError');
  });

  it('ends the sessions of a deleted user at once, on another replica too', async () => {
    await t.admin
      .post('/api/admin/user-admin', { username: 'eve', rootRole: 1, password: 'eve password 123' })
      .expect(201);
    const replica = await startTestApp({}, { databaseUrl: t.database.url });
    try {
      const cookie = await signIn(t, 'eve', 'eve password 123');
      await replica.http.get('/api/admin/projects').set('Cookie', cookie).expect(200);
      const users = await t.admin.get('/api/admin/user-admin').expect(200);
      const eve = users.body.users.find((u: { username: string }) => u.username === 'eve');
      await t.admin.delete(`/api/admin/user-admin/${eve.id}`).expect(204);
      expectErrorRecord(
        await replica.http.get('/api/admin/projects').set('Cookie', cookie),
        401,
        'AuthenticationRequired',
      );
    } finally {
      await replica.app.close();
    }
  });

  it('records who changed what; a token acting alone by its name, a user by theirs', async () => {
    await t.admin.post('/api/admin/user-admin', { username: 'tom', rootRole: 2 }).expect(201);
    const cookie = await signIn(t, 'admin', ADMIN_PASSWORD);
    await withCookie(t, cookie)
      .post('/api/admin/user-admin', { username: 'kim', rootRole: 2 })
      .expect(201);
    const events = await t.admin.get('/api/admin/events?type=user-created').expect(200);
    const byUser = Object.fromEntries(
      events.body.events.map((e: { data: { username: string } }) => [e.data.username, e]),
    );
    expect(byUser.tom).toEqual(
      expect.objectContaining({ createdBy: 'init-admin-token-1', createdByUserId: null }),
    );
    expect(byUser.kim).toEqual(expect.objectContaining({ createdBy: 'Admin', createdByUserId: 1 }));
    const search = await t.admin.get('/api/admin/search/events?limit=1').expect(200);
    expect(search.body.events).toHaveLength(1);
    expect(search.body.total).toBeGreaterThan(1);
    expect(JSON.stringify(events.body)).not.toMatch(/password|scrypt/i);
  });

  it('rate-limits failed sign-ins per username with 429', async () => {
    const attempt = () =>
      t.http.post('/auth/simple/login').send({ username: 'tom', password: 'wrong password' });
    for (let i = 0; i < 10; i++) expectErrorRecord(await attempt(), 401, 'AuthenticationRequired');
    expectErrorRecord(await attempt(), 429, 'TooManyRequestsError');
  });
});
