import { expectErrorRecord, startTestApp, TestApp } from './support/test-app';

describe('error records of rules.md §2', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('404 NotFoundError for an unknown route', async () => {
    const res = await t.admin.get('/api/admin/nothing-here');
    expect(expectErrorRecord(res, 404, 'NotFoundError').message).toBe(
      'Could not find route GET /api/admin/nothing-here',
    );
  });

  it('400 ValidationError with details for a body of the wrong shape', async () => {
    const res = await t.admin.post('/api/admin/roles', { name: 5, permissions: 'all', extra: 1 });
    const record = expectErrorRecord(res, 400, 'ValidationError');
    expect(record.details).toEqual([
      { path: '/body/extra', message: 'extra is not an allowed property' },
      {
        path: '/body/name',
        message:
          'name must be longer than or equal to 1 and shorter than or equal to 100 characters; name must be a string',
      },
      {
        path: '/body/permissions',
        message:
          'each item of permissions must be an object; permissions must be an array; each value in nested property permissions must be either object or array',
      },
    ]);
    expect(record.message).toContain('/body/name');
  });

  it('400 for body properties named like members of Object.prototype', async () => {
    const res = await t.admin
      .post('/api/admin/roles')
      .set('content-type', 'application/json')
      .send('{"name":"r","permissions":[],"toString":"x","valueOf":1}');
    const record = expectErrorRecord(res, 400, 'ValidationError');
    expect(record.details?.map((d) => d.path).sort()).toEqual(['/body/toString', '/body/valueOf']);
  });

  it('400 ValidationError for a body that is not JSON', async () => {
    const res = await t.admin
      .post('/api/admin/roles')
      .set('content-type', 'application/json')
      .send('{not json');
    expectErrorRecord(res, 400, 'ValidationError');
  });

  it('400 ValidationError for a JSON body that is not an object', async () => {
    const res = await t.admin
      .post('/api/admin/roles')
      .set('content-type', 'application/json')
      .send('[1,2]');
    expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
      { path: '/body', message: 'The body must be a JSON object' },
    ]);
  });

  it('415 ContentTypeError for a body that is not JSON', async () => {
    const res = await t.admin
      .post('/api/admin/roles')
      .set('content-type', 'text/plain')
      .send('name=x');
    expectErrorRecord(res, 415, 'ContentTypeError');
    const form = await t.admin
      .post('/api/admin/roles')
      .set('content-type', 'application/x-www-form-urlencoded')
      .send('name=x');
    expectErrorRecord(form, 415, 'ContentTypeError');
  });

  it('413 PayloadTooLargeError for a body over 100 KiB', async () => {
    const res = await t.admin.post('/api/admin/roles', {
      name: 'x'.repeat(101 * 1024),
      permissions: [],
    });
    expectErrorRecord(res, 413, 'PayloadTooLargeError');
  });

  it('sends the security headers and a request id', async () => {
    const res = await t.http.get('/health').set('x-request-id', 'trace-123').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-123');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });
});
