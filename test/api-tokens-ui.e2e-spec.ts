import { hashToken } from '../src/auth/token-secrets';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const TOKENS = '/api/admin/api-tokens';

/** API tokens as Unleash's admin UI creates, lists and deletes them (issue 11, item 7). */
describe('API tokens for admin frontends', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin.post('/api/admin/projects', { id: 'shop', name: 'Shop' }).expect(201);
  });
  afterAll(() => t.close());

  const listed = async (id: number) =>
    (await t.admin.get(TOKENS).expect(200)).body.tokens.find(
      (tok: { id: number }) => tok.id === id,
    );

  it('takes the type in any letter case, with backend as client', async () => {
    const cases: Array<[string, string]> = [
      ['CLIENT', 'client'],
      ['Frontend', 'frontend'],
      ['backend', 'client'],
      ['BACKEND', 'client'],
    ];
    for (const [sent, stored] of cases) {
      const res = await t.admin
        .post(TOKENS, { tokenName: sent, type: sent, environment: 'development', projects: ['*'] })
        .expect(201);
      expect(res.body.type).toBe(stored);
      expect(res.body.secret).toMatch(/^\*:development\.[0-9a-f]{64}$/);
    }
    const wrong = await t.admin.post(TOKENS, { tokenName: 'x', type: 'BACK-END' });
    expect(expectErrorRecord(wrong, 400, 'ValidationError').details?.[0].path).toBe('/body/type');
    const number = await t.admin.post(TOKENS, { tokenName: 'x', type: 3 });
    expect(expectErrorRecord(number, 400, 'ValidationError').details?.[0].path).toBe('/body/type');
  });

  it('takes an admin token as the UI sends it (environment *, projects [*]) and lists it with environment *', async () => {
    const res = await t.admin
      .post(TOKENS, { tokenName: 'ui-admin', type: 'ADMIN', environment: '*', projects: ['*'] })
      .expect(201);
    expect(res.body).toEqual(
      expect.objectContaining({ type: 'admin', environment: '*', project: '*', projects: [] }),
    );
    expect(res.body.secret).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
    await t.as(res.body.secret).get('/api/admin/projects').expect(200);
    const row = await listed(res.body.id);
    expect(row).toEqual(
      expect.objectContaining({
        secret: `token-${res.body.id}`,
        environment: '*',
        project: '*',
      }),
    );
    // Other scopes on an admin token stay refused, and * is no environment for SDK tokens.
    const scoped = await t.admin.post(TOKENS, {
      tokenName: 'x',
      type: 'admin',
      environment: 'development',
    });
    expect(expectErrorRecord(scoped, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/environment',
    );
    const star = await t.admin.post(TOKENS, { tokenName: 'x', type: 'client', environment: '*' });
    expect(expectErrorRecord(star, 400, 'ValidationError').details?.[0].path).toBe(
      '/body/environment',
    );
  });

  it('lists project beside projects: the one project, * for all, [] for several', async () => {
    const make = async (projects: string[]) =>
      (
        await t.admin
          .post(TOKENS, { tokenName: 'p', type: 'client', environment: 'development', projects })
          .expect(201)
      ).body;
    const one = await make(['shop']);
    const all = await make(['*']);
    const several = await make(['shop', 'default']);
    expect(one).toEqual(expect.objectContaining({ project: 'shop', projects: ['shop'] }));
    expect(await listed(one.id)).toEqual(
      expect.objectContaining({ project: 'shop', projects: ['shop'], environment: 'development' }),
    );
    expect(await listed(all.id)).toEqual(
      expect.objectContaining({ project: '*', projects: ['*'] }),
    );
    expect(await listed(several.id)).toEqual(
      expect.objectContaining({ project: '[]', projects: ['shop', 'default'] }),
    );
  });

  it('lists an identifier, never the secret, and deletes by it as the UI does', async () => {
    const created = await t.admin
      .post(TOKENS, { tokenName: 'doomed', type: 'CLIENT', environment: 'production' })
      .expect(201);
    const secret: string = created.body.secret;
    const list = await t.admin.get(TOKENS).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(secret.split('.')[1]);
    const row = list.body.tokens.find((tok: { id: number }) => tok.id === created.body.id);
    expect(row.secret).toBe(`token-${created.body.id}`);
    expect(row.secret).not.toBe(secret);

    await t.admin.delete(`${TOKENS}/${row.secret}`).expect(204);
    expect(await listed(created.body.id)).toBeUndefined();
    const rows = await t.dataSource.query('SELECT id FROM api_tokens WHERE secret_hash = ?', [
      hashToken(secret),
    ]);
    expect(rows).toEqual([]);
    expectErrorRecord(await t.admin.delete(`${TOKENS}/${row.secret}`), 404, 'NotFoundError');
  });

  it('deletes by id as before, and answers 400 for anything that is neither', async () => {
    const created = await t.admin.post(TOKENS, { tokenName: 'by-id', type: 'admin' }).expect(201);
    await t.admin.delete(`${TOKENS}/${created.body.id}`).expect(204);
    for (const ref of ['undefined', 'token-', 'token-0', 'token-1x', '0', '1e0', 'x-token-1']) {
      const res = await t.admin.delete(`${TOKENS}/${ref}`);
      expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe('/param/id');
    }
    // A real secret in the path is not a way to name a token (it would land in request logs).
    const other = await t.admin.post(TOKENS, { tokenName: 'kept', type: 'admin' }).expect(201);
    expectErrorRecord(
      await t.admin.delete(`${TOKENS}/${encodeURIComponent(other.body.secret)}`),
      400,
      'ValidationError',
    );
    await t.as(other.body.secret).get(TOKENS).expect(200);
  });

  it('needs DELETE_API_TOKEN to delete by identifier', async () => {
    const created = await t.admin.post(TOKENS, { tokenName: 'guarded', type: 'admin' }).expect(201);
    const viewer = await serviceTokenWith(t, []);
    expectErrorRecord(
      await t.as(viewer).delete(`${TOKENS}/token-${created.body.id}`),
      403,
      'PermissionError',
    );
    const deleter = await serviceTokenWith(t, [{ name: 'DELETE_API_TOKEN' }]);
    await t.as(deleter).delete(`${TOKENS}/token-${created.body.id}`).expect(204);
  });
});
