import type { Browser } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { launchChromium, nonLoopbackAddress } from './browser';

describe('/docs in a browser, over plain HTTP on a non-loopback address', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    const host = nonLoopbackAddress();
    await t.app.listen(0, host);
    base = `http://${host}:${(t.app.getHttpServer().address() as { port: number }).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders Swagger UI with the operations', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    await page.goto(`${base}/docs`);
    // Each operation is a block naming its path; the clone is one of the seed's three.
    const clone = page.locator('.opblock', { hasText: '/api/admin/environments/{name}/clone' });
    await clone.first().waitFor({ timeout: 30000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(60);
    expect(await page.locator('.opblock-summary-description').allTextContents()).toContain(
      'Export features of an environment',
    );
    expect(failed).toEqual([]);
  });

  it('keeps the strict headers on the API routes and relaxes only /docs', async () => {
    const api = await fetch(`${base}/health`);
    expect(api.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(api.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');

    const docs = await fetch(`${base}/docs`);
    expect(docs.headers.get('strict-transport-security')).toBeNull();
    expect(docs.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    // What stays: scripts only from the service itself, no framing, no sniffing.
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
