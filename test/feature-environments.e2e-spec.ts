import {
  createFeature,
  envUrl,
  featureUrl,
  insertEnvironmentDirectly,
  insertProjectDirectly,
} from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

describe('feature environments: on and off', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await insertEnvironmentDirectly(t, 'staging', 'preproduction');
    await insertProjectDirectly(t, 'other', ['development']);
    await createFeature(t, 'toggle');
  });
  afterAll(() => t.close());

  async function enabledIn(name: string): Promise<Record<string, boolean>> {
    const res = await t.admin.get(featureUrl(name)).expect(200);
    return Object.fromEntries(
      res.body.environments.map((e: { name: string; enabled: boolean }) => [e.name, e.enabled]),
    );
  }

  it('switches a feature on and off in one environment (204)', async () => {
    await t.admin.post(`${envUrl('toggle', 'development')}/on`).expect(204);
    expect(await enabledIn('toggle')).toEqual({ development: true, production: false });
    const feature = await t.admin.get(featureUrl('toggle')).expect(200);
    expect(feature.body.enabled).toBe(true);
    // Switching on again is harmless.
    await t.admin.post(`${envUrl('toggle', 'development')}/on`).expect(204);
    await t.admin.post(`${envUrl('toggle', 'development')}/off`).expect(204);
    expect(await enabledIn('toggle')).toEqual({ development: false, production: false });
    await t.admin.post(`${envUrl('toggle', 'development')}/off`).expect(204);
  });

  it('answers 404 for an unknown environment', async () => {
    const res = await t.admin.post(`${envUrl('toggle', 'nowhere')}/on`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Could not find environment with name nowhere',
    );
  });

  it('answers 404 for an environment not linked to the feature project', async () => {
    const res = await t.admin.post(`${envUrl('toggle', 'staging')}/on`);
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Environment staging is not linked to project default, so feature toggle has no configuration there',
    );
    await createFeature(t, 'elsewhere', {}, 'other');
    expectErrorRecord(
      await t.admin.post(`${envUrl('elsewhere', 'production', 'other')}/on`),
      404,
      'NotFoundError',
    );
  });

  it('answers 404 for an unknown feature, another project feature and an unknown project', async () => {
    expectErrorRecord(
      await t.admin.post(`${envUrl('ghost', 'development')}/on`),
      404,
      'NotFoundError',
    );
    expectErrorRecord(
      await t.admin.post(`${envUrl('elsewhere', 'development')}/on`),
      404,
      'NotFoundError',
    );
    expectErrorRecord(
      await t.admin.post(`${envUrl('toggle', 'development', 'nope')}/off`),
      404,
      'NotFoundError',
    );
  });

  it('answers 400 for an archived feature', async () => {
    await createFeature(t, 'shelved');
    await t.admin.delete(featureUrl('shelved')).expect(204);
    const res = await t.admin.post(`${envUrl('shelved', 'development')}/on`);
    expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
      { path: '/param/name', message: 'Feature shelved is archived; revive it before changing it' },
    ]);
  });

  it('checks UPDATE_FEATURE_ENVIRONMENT for the environment in the path', async () => {
    const token = await serviceTokenWith(t, [
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' },
    ]);
    await t
      .as(token)
      .post(`${envUrl('toggle', 'development')}/on`)
      .expect(204);
    await t
      .as(token)
      .post(`${envUrl('toggle', 'development')}/off`)
      .expect(204);
    const res = await t.as(token).post(`${envUrl('toggle', 'production')}/on`);
    expect(expectErrorRecord(res, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['UPDATE_FEATURE_ENVIRONMENT'] }),
    );
    expectErrorRecord(
      await t.as(token).post(`${envUrl('toggle', 'production')}/off`),
      403,
      'PermissionError',
    );
    expect(await enabledIn('toggle')).toEqual({ development: false, production: false });

    const everywhere = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE_ENVIRONMENT' }]);
    await t
      .as(everywhere)
      .post(`${envUrl('toggle', 'production')}/off`)
      .expect(204);
    const none = await serviceTokenWith(t, [{ name: 'UPDATE_FEATURE' }]);
    expectErrorRecord(
      await t.as(none).post(`${envUrl('toggle', 'development')}/on`),
      403,
      'PermissionError',
    );
  });
});
