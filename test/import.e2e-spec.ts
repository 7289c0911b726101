import { EXPORT, create, expectStatus } from './export-fixtures';
import { generatedDocument, IMPORT, VALIDATE } from './import-fixtures';
import { startTestApp, TestApp } from './support/test-app';

describe('import: statements', () => {
  let t: TestApp;
  let segment: { id: number; name: string };

  beforeAll(async () => {
    t = await startTestApp();
    const res = await create(t, '/api/admin/segments', { name: 'staff', constraints: [] });
    segment = { id: res.body.id as number, name: 'staff' };
  });
  afterAll(() => t.close());

  it('imports a generated file and exports it back', async () => {
    const data = generatedDocument(3, segment);
    const res = await t.admin.post(VALIDATE, { project: 'default', environment: 'development', data });
    expect(res.status).toBe(200);
    console.log(JSON.stringify(res.body, null, 1));
    const imp = await t.admin.post(IMPORT, { project: 'default', environment: 'development', data });
    console.log(imp.status, JSON.stringify(imp.body));
    const exp = await expectStatus(t.admin.post(EXPORT, { project: 'default', environment: 'development' }), 200);
    console.log(JSON.stringify(exp.body).slice(0, 3000));
  });
});
