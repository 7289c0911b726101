import {
  createFeature,
  envUrl,
  featureUrl,
  insertEnvironmentDirectly,
  insertProjectDirectly,
} from './feature-fixtures';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('feature lifecycle', () => {
  let t: TestApp;
  const lifecycle = (name: string, project = 'default') => `${featureUrl(name, project)}/lifecycle`;
  const stagesOf = async (name: string, project = 'default') => {
    const res = await t.admin.get(lifecycle(name, project)).expect(200);
    return res.body.map((s: { stage: string }) => s.stage);
  };
  const currentOf = async (name: string, project = 'default') => {
    const res = await t.admin.get(featureUrl(name, project)).expect(200);
    return res.body.lifecycle.stage;
  };

  beforeAll(async () => {
    t = await startTestApp();
    // Stages follow the environment's type, not its name.
    await insertEnvironmentDirectly(t, 'staging', 'preproduction');
    await insertEnvironmentDirectly(t, 'eu-live', 'production');
    await insertProjectDirectly(t, 'shop', ['staging', 'eu-live']);
  });
  afterAll(() => t.close());

  it('starts in initial', async () => {
    await createFeature(t, 'fresh');
    const res = await t.admin.get(lifecycle('fresh')).expect(200);
    expect(res.body).toEqual([{ stage: 'initial', enteredStageAt: expect.stringMatching(ISO) }]);
  });

  it('enters pre-live when first enabled outside production, live when first enabled in production', async () => {
    await createFeature(t, 'journey');
    await t.admin.post(`${envUrl('journey', 'production')}/off`).expect(204);
    expect(await stagesOf('journey')).toEqual(['initial']);
    await t.admin.post(`${envUrl('journey', 'development')}/on`).expect(204);
    expect(await stagesOf('journey')).toEqual(['initial', 'pre-live']);
    expect(await currentOf('journey')).toBe('pre-live');
    await t.admin.post(`${envUrl('journey', 'development')}/off`).expect(204);
    await t.admin.post(`${envUrl('journey', 'production')}/on`).expect(204);
    const res = await t.admin.get(lifecycle('journey')).expect(200);
    expect(res.body.map((s: { stage: string }) => s.stage)).toEqual([
      'initial',
      'pre-live',
      'live',
    ]);
    const times = res.body.map((s: { enteredStageAt: string }) => Date.parse(s.enteredStageAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await currentOf('journey')).toBe('live');
    // Only forwards: enabling in development again changes nothing.
    await t.admin.post(`${envUrl('journey', 'development')}/on`).expect(204);
    await t.admin.get(lifecycle('journey')).expect(200, res.body);
  });

  it('goes straight to live without recording pre-live, and uses environment types', async () => {
    await createFeature(t, 'hotfix');
    await t.admin.post(`${envUrl('hotfix', 'production')}/on`).expect(204);
    await t.admin.post(`${envUrl('hotfix', 'development')}/on`).expect(204);
    expect(await stagesOf('hotfix')).toEqual(['initial', 'live']);

    await createFeature(t, 'typed', {}, 'shop');
    await t.admin.post(`${envUrl('typed', 'staging', 'shop')}/on`).expect(204);
    expect(await stagesOf('typed', 'shop')).toEqual(['initial', 'pre-live']);
    await t.admin.post(`${envUrl('typed', 'eu-live', 'shop')}/on`).expect(204);
    expect(await currentOf('typed', 'shop')).toBe('live');
  });

  it('completes (200 with the stages), records a later decision, and stays completed', async () => {
    await createFeature(t, 'done');
    await t.admin.post(`${envUrl('done', 'production')}/on`).expect(204);
    const res = await t.admin.post(`${lifecycle('done')}/complete`).expect(200);
    expect(res.body).toEqual([
      { stage: 'initial', enteredStageAt: expect.stringMatching(ISO) },
      { stage: 'live', enteredStageAt: expect.stringMatching(ISO) },
      {
        stage: 'completed',
        enteredStageAt: expect.stringMatching(ISO),
        status: 'kept',
        statusValue: null,
      },
    ]);
    const again = await t.admin
      .post(`${lifecycle('done')}/complete`, { status: 'discarded', statusValue: 'variant-b' })
      .expect(200);
    expect(again.body[2]).toEqual({
      stage: 'completed',
      enteredStageAt: res.body[2].enteredStageAt,
      status: 'discarded',
      statusValue: 'variant-b',
    });
    await t.admin.post(`${envUrl('done', 'development')}/on`).expect(204);
    expect(await currentOf('done')).toBe('completed');
  });

  it('is archived on archive, and back in the stage held before on revive', async () => {
    await t.admin.delete(featureUrl('done')).expect(204);
    expect(await stagesOf('done')).toEqual(['initial', 'live', 'completed', 'archived']);
    expect(await currentOf('done')).toBe('archived');
    const completeArchived = await t.admin.post(`${lifecycle('done')}/complete`);
    expectErrorRecord(completeArchived, 400, 'ValidationError');
    await t.admin.post('/api/admin/archive/revive/done').expect(200);
    expect(await stagesOf('done')).toEqual(['initial', 'live', 'completed']);
    expect(await currentOf('done')).toBe('completed');

    await createFeature(t, 'brief');
    await t.admin.delete(featureUrl('brief')).expect(204);
    await t.admin.post('/api/admin/archive/revive/brief').expect(200);
    expect(await stagesOf('brief')).toEqual(['initial']);
  });

  it('answers 400 for an invalid completion body', async () => {
    const res = await t.admin.post(`${lifecycle('fresh')}/complete`, {
      status: 'maybe',
      statusValue: 5,
      note: 'x',
    });
    expect(
      expectErrorRecord(res, 400, 'ValidationError')
        .details?.map((d) => d.path)
        .sort(),
    ).toEqual(['/body/note', '/body/status', '/body/statusValue']);
  });

  it('answers 404 for an unknown feature or one of another project', async () => {
    for (const url of [lifecycle('ghost'), lifecycle('typed'), lifecycle('fresh', 'nope')]) {
      expectErrorRecord(await t.admin.get(url), 404, 'NotFoundError');
      expectErrorRecord(await t.admin.post(`${url}/complete`), 404, 'NotFoundError');
    }
  });

  it('needs UPDATE_FEATURE to complete', async () => {
    const token = await serviceTokenWith(t, [{ name: 'CREATE_FEATURE' }]);
    await t.as(token).get(lifecycle('fresh')).expect(200);
    const res = await t.as(token).post(`${lifecycle('fresh')}/complete`);
    expect(expectErrorRecord(res, 403, 'PermissionError')).toEqual(
      expect.objectContaining({ permissions: ['UPDATE_FEATURE'] }),
    );
  });
});
