import { createFeature, createStrategy, envUrl, featureUrl } from './feature-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

/** What Unleash's feature page and project list call besides the feature itself (issue 11, item 8). */
describe('feature page extras', () => {
  let t: TestApp;
  const PROJECTS = '/api/admin/projects';

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin.post(PROJECTS, { id: 'shop', name: 'Shop' }).expect(201);
    await t.admin.post(PROJECTS, { id: 'empty', name: 'Empty' }).expect(201);
    for (const name of ['parent', 'child', 'zeta', 'Alpha', 'gone']) await createFeature(t, name);
    await createFeature(t, 'cart', {}, 'shop');
    // A fresh MariaDB schema and these rows take longer than Jest's default 5 s on a busy machine.
  }, 30_000);
  afterAll(() => t.close());

  it('GET /projects/:id/dependencies says whether the project has any dependency', async () => {
    await t.admin.get(`${PROJECTS}/default/dependencies`).expect(200, 'false');
    await t.admin.post(`${featureUrl('child')}/dependencies`, { feature: 'parent' }).expect(201);
    const res = await t.admin.get(`${PROJECTS}/default/dependencies`).expect(200);
    expect(res.body).toBe(true);
    expect((await t.admin.get(`${PROJECTS}/shop/dependencies`).expect(200)).body).toBe(false);
    expectErrorRecord(await t.admin.get(`${PROJECTS}/nope/dependencies`), 404, 'NotFoundError');
  });

  it('GET .../features/:child/parents lists the possible parents, by name', async () => {
    await t.admin.delete(featureUrl('gone')).expect(204);
    // Not itself, not a feature that has parents (child), not archived, not another project's.
    const res = await t.admin.get(`${featureUrl('zeta')}/parents`).expect(200);
    expect(res.body).toEqual(['Alpha', 'parent']);
    const own = await t.admin.get(`${featureUrl('parent')}/parents`).expect(200);
    expect(own.body).toEqual(['Alpha', 'zeta']);
    await t.admin.get(`${featureUrl('cart', 'shop')}/parents`).expect(200, []);
    expectErrorRecord(await t.admin.get(`${featureUrl('nope')}/parents`), 404, 'NotFoundError');
    expectErrorRecord(await t.admin.get(`${featureUrl('cart')}/parents`), 404, 'NotFoundError');
  });

  it('GET .../features/:parent/parent-variants lists strategy and environment variant names once each', async () => {
    await t.admin.get(`${featureUrl('parent')}/parent-variants`).expect(200, []);
    const variant = (name: string) => ({
      name,
      weight: 500,
      weightType: 'variable',
      stickiness: 'default',
    });
    await t.admin
      .put(`${envUrl('parent', 'development')}/variants`, [variant('red'), variant('blue')])
      .expect(200);
    await createStrategy(t, 'parent', 'production', {
      name: 'flexibleRollout',
      parameters: { rollout: '100', stickiness: 'default', groupId: 'parent' },
      variants: [variant('green'), variant('red')],
    });
    const res = await t.admin.get(`${featureUrl('parent')}/parent-variants`).expect(200);
    expect(res.body).toEqual(['blue', 'green', 'red']);
    expectErrorRecord(
      await t.admin.get(`${featureUrl('parent', 'shop')}/parent-variants`),
      404,
      'NotFoundError',
    );
  });

  it('GET /environments/project/:id lists the project’s environments with its enabled count', async () => {
    await t.admin.post(`${envUrl('parent', 'production')}/on`).expect(204);
    await t.admin.post(`${envUrl('zeta', 'production')}/on`).expect(204);
    await t.admin.post(`${envUrl('cart', 'production', 'shop')}/on`).expect(204);
    const res = await t.admin.get('/api/admin/environments/project/default').expect(200);
    expect(res.body).toEqual({
      version: 1,
      environments: [
        {
          name: 'development',
          type: 'development',
          enabled: true,
          protected: false,
          sortOrder: 100,
          projectEnabledToggleCount: 0,
        },
        {
          name: 'production',
          type: 'production',
          enabled: true,
          protected: false,
          sortOrder: 200,
          projectEnabledToggleCount: 2,
        },
      ],
    });
    const empty = await t.admin.get('/api/admin/environments/project/empty').expect(200);
    expect(empty.body.environments.map((e: { name: string }) => e.name)).toEqual([
      'development',
      'production',
    ]);
    expectErrorRecord(
      await t.admin.get('/api/admin/environments/project/nope'),
      404,
      'NotFoundError',
    );
  });

  it('GET /projects/:id/flag-creators is an empty list until people exist', async () => {
    await t.admin.get(`${PROJECTS}/default/flag-creators`).expect(200, []);
    expectErrorRecord(await t.admin.get(`${PROJECTS}/nope/flag-creators`), 404, 'NotFoundError');
    expectErrorRecord(
      await t.http.get(`${PROJECTS}/default/flag-creators`),
      401,
      'AuthenticationRequired',
    );
  });
});
