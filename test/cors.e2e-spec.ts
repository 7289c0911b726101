import { startTestApp, TestApp } from './support/test-app';

describe('CORS', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: 'https://admin.example.com' });
  });
  afterAll(() => t.close());

  it('allows the configured origin to call the API from a browser', async () => {
    const res = await t.http
      .options('/api/admin/roles')
      .set('Origin', 'https://admin.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://admin.example.com');
  });

  it('does not allow other origins', async () => {
    const res = await t.http.get('/health').set('Origin', 'https://evil.example.com');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
