import { TOKEN_CACHE_TTL_MS } from '../src/auth/api-tokens.service';
import { serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * D4 and D5 of issue 13: authorization changes hold at once on the replica that made them and
 * soon on the others. Two app instances share one database, as two replicas do.
 */
describe('authorization changes across two replicas', () => {
  let a: TestApp;
  let b: TestApp;

  /**
   * Sends the request to `replica` until it answers `status`, and fails if the token cache's own
   * expiry would have been needed: the change must arrive through the auth version, long before.
   */
  async function eventually(
    send: () => PromiseLike<{ status: number }>,
    status: number,
  ): Promise<void> {
    const step = 25;
    for (let waited = 0; waited < TOKEN_CACHE_TTL_MS / 10; waited += step) {
      if ((await send()).status === status) return;
      await sleep(step);
    }
    throw new Error(`still not ${status} after ${TOKEN_CACHE_TTL_MS / 10} ms`);
  }

  beforeAll(async () => {
    a = await startTestApp();
    b = await startTestApp({}, { databaseUrl: a.database.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('D5: a revoked token is refused at once by its replica and soon by the other', async () => {
    const secret = await serviceTokenWith(a, [{ name: 'CREATE_PROJECT' }]);
    // Both replicas have resolved (and cached) the token.
    await a.as(secret).get('/api/admin/projects').expect(200);
    await b.as(secret).get('/api/admin/projects').expect(200);
    const tokens = await a.admin.get('/api/admin/api-tokens').expect(200);
    const id = tokens.body.tokens.find((tk: { tokenName: string }) => tk.tokenName === 'service')
      ?.id as number;
    await a.admin.delete(`/api/admin/api-tokens/${id}`).expect(204);

    await a.as(secret).get('/api/admin/projects').expect(401);
    await eventually(() => b.as(secret).get('/api/admin/projects'), 401);
    // Once refused, never accepted again.
    await b.as(secret).get('/api/admin/projects').expect(401);
  });

  it('D4: a permission taken from a role is refused at once by its replica and soon by the other', async () => {
    const role = await a.admin
      .post('/api/admin/roles', {
        name: 'shrinking',
        permissions: [{ name: 'CREATE_PROJECT' }, { name: 'UPDATE_PROJECT' }],
      })
      .expect(201);
    const token = await a.admin
      .post('/api/admin/api-tokens', { tokenName: 'bound', type: 'service', roleId: role.body.id })
      .expect(201);
    const secret = token.body.secret as string;
    const create = (app: TestApp, id: string) =>
      app.as(secret).post('/api/admin/projects', { id, name: id });
    await create(a, 'pa-1').expect(201);
    await create(b, 'pb-1').expect(201);

    await a.admin
      .put(`/api/admin/roles/${role.body.id}`, { permissions: [{ name: 'UPDATE_PROJECT' }] })
      .expect(200);
    await create(a, 'pa-2').expect(403);
    let n = 2;
    await eventually(() => create(b, `pb-${n++}`), 403);

    // And given back: both replicas see it too.
    await a.admin
      .put(`/api/admin/roles/${role.body.id}`, { permissions: [{ name: 'CREATE_PROJECT' }] })
      .expect(200);
    await create(a, 'pa-3').expect(201);
    await eventually(() => create(b, `pb-${n++}`), 201);
  });
});
