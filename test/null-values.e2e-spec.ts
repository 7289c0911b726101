import { envUrl } from './feature-fixtures';
import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

/** null where a field cannot be empty is a 400 naming the field, never a 500. */
describe('null for fields that cannot be empty', () => {
  let t: TestApp;
  let segmentId: number;
  let strategyId: string;
  let roleId: number;

  beforeAll(async () => {
    t = await startTestApp();
    await t.admin.post('/api/admin/projects', { id: 'p1', name: 'P1' }).expect(201);
    segmentId = (
      await t.admin.post('/api/admin/segments', { name: 's1', constraints: [] }).expect(201)
    ).body.id;
    roleId = (await t.admin.post('/api/admin/roles', { name: 'r1', permissions: [] }).expect(201))
      .body.id;
    await t.admin.post('/api/admin/projects/default/features', { name: 'f1' }).expect(201);
    strategyId = (
      await t.admin
        .post(`${envUrl('f1', 'development')}/strategies`, { name: 'default' })
        .expect(201)
    ).body.id;
  });
  afterAll(() => t.close());

  const cases: Array<[string, 'put' | 'post', () => string, object, string]> = [
    ['role name', 'put', () => `/api/admin/roles/${roleId}`, { name: null }, '/body/name'],
    ['project name', 'put', () => '/api/admin/projects/p1', { name: null }, '/body/name'],
    [
      'environment type',
      'put',
      () => '/api/admin/environments/development',
      { type: null },
      '/body/type',
    ],
    [
      'environment sortOrder',
      'put',
      () => '/api/admin/environments/development',
      { sortOrder: null },
      '/body/sortOrder',
    ],
    [
      'context field stickiness',
      'put',
      () => '/api/admin/context/userId',
      { stickiness: null },
      '/body/stickiness',
    ],
    [
      'context field sortOrder',
      'put',
      () => '/api/admin/context/userId',
      { sortOrder: null },
      '/body/sortOrder',
    ],
    [
      'segment name',
      'put',
      () => `/api/admin/segments/${segmentId}`,
      { name: null, constraints: [] },
      '/body/name',
    ],
    [
      'segment constraints',
      'put',
      () => `/api/admin/segments/${segmentId}`,
      { name: 's1', constraints: null },
      '/body/constraints',
    ],
    [
      'strategy sortOrder',
      'put',
      () => `${envUrl('f1', 'development')}/strategies/${strategyId}`,
      { name: 'default', sortOrder: null },
      '/body/sortOrder',
    ],
    [
      'clone projects',
      'post',
      () => '/api/admin/environments/development/clone',
      { name: 'c1', type: 'test', projects: null },
      '/body/projects',
    ],
    [
      'clone clonePermissions',
      'post',
      () => '/api/admin/environments/development/clone',
      { name: 'c2', type: 'test', clonePermissions: null },
      '/body/clonePermissions',
    ],
  ];

  it.each(cases)('%s: null is a 400', async (_label, method, url, body, path) => {
    const res = await t.admin[method](url(), body);
    const record = expectErrorRecord(res, 400, 'ValidationError');
    expect(record.details?.map((d) => d.path)).toContain(path);
  });
});
