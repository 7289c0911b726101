import { ADMIN_TOKEN, expectErrorRecord, startTestApp, TestApp } from './support/test-app';

describe('unexpected errors', () => {
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({}, { logLines });
  });
  afterAll(() => t.close());

  it('answer a generic 500 whose id and stack are in the log line only, with no secret', async () => {
    // Break the schema under the running app so that the next query fails in the driver.
    await t.dataSource.query('ALTER TABLE roles RENAME TO roles_gone');
    const res = await t.admin.get('/api/admin/roles');
    const record = expectErrorRecord(res, 500, 'InternalError');
    expect(Object.keys(record).sort()).toEqual(['id', 'message', 'name']);
    expect(record.message).not.toMatch(/roles|table|SQL|ER_|at /i);

    const line = logLines.find((l) => l.includes(record.id));
    expect(line).toBeDefined();
    const entry = JSON.parse(line as string);
    expect(entry).toEqual(expect.objectContaining({ level: 50, errorId: record.id }));
    expect(entry.errorMessage).toMatch(/roles/);
    // The stack goes to the log line (one JSON line, its newlines escaped), never to the response.
    expect(entry.stack).toMatch(/\n\s+at /);
    expect((line as string).trimEnd()).not.toContain('\n');
    expect(JSON.stringify(res.body)).not.toMatch(/\bat \S+ \(|\.ts:\d+/);
    expect(logLines.join('\n')).not.toContain(ADMIN_TOKEN);
    expect(logLines.join('\n')).not.toContain(ADMIN_TOKEN.split('.')[1]);
    await t.dataSource.query('ALTER TABLE roles_gone RENAME TO roles');
  });

  it('logs one line per request with its request id and no token', async () => {
    logLines.length = 0;
    await t.admin.get('/api/admin/roles').set('x-request-id', 'req-abc').expect(200);
    const requestLine = logLines
      .map((l) => JSON.parse(l))
      .find((e) => e.msg === 'request completed');
    expect(requestLine).toEqual(
      expect.objectContaining({
        reqId: 'req-abc',
        method: 'GET',
        url: '/api/admin/roles',
        statusCode: 200,
      }),
    );
    expect(logLines.join('\n')).not.toContain(ADMIN_TOKEN.split('.')[1]);
  });
});
