import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../support/test-app';
import { launchChromium } from './browser';
import { serveUnleashUi, UiServer, unleashUiBuild } from './unleash-ui';

/**
 * Unleash's own admin UI (7.5.1, the compiled build from the npm package) driven in Chromium
 * against Flagkeeper, signed in as the admin user through the UI's login page. Every flow checks
 * what the page shows and what Flagkeeper stored, read back through the admin API.
 *
 * The flows share one signed-in page and run in order; each seeds through the API only what it
 * does not itself create in the UI.
 */

/** Long enough for a loaded 2-core machine; a missing element still fails in bounded time. */
const UI_WAIT = 20000;
const SHOTS = join(tmpdir(), 'flagkeeper-ui-shots');

describe("Unleash's admin UI 7.5.1 against Flagkeeper", () => {
  let t: TestApp;
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  /** The UI's calls that Flagkeeper refused, newest last, to explain a failing flow. */
  const refused: string[] = [];

  /** Runs one flow; on failure keeps a screenshot of the page to show what the UI said. */
  async function flow(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      mkdirSync(SHOTS, { recursive: true });
      const file = join(SHOTS, `${name.replace(/\W+/g, '-')}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      // Shown beside the failure: the page as it was, and what Flagkeeper refused just before.
      console.error(`${name}: screenshot ${file}\nrefused calls:\n${refused.slice(-8).join('\n')}`);
      throw error;
    }
  }

  async function open(path: string): Promise<void> {
    await page.goto(`${ui.origin}${path}`);
  }

  /**
   * Polls with one-shot checks rather than locator.waitFor: on some pages the UI keeps
   * re-rendering, which starves the animation-frame polling that waitFor relies on.
   */
  async function visible(locator: Locator): Promise<void> {
    await until(
      () => locator.first().isVisible(),
      (shown) => shown,
    );
  }

  /** Waits until the page's text matches, however the UI splits it into elements. */
  async function shows(text: RegExp): Promise<void> {
    await until(
      () => page.locator('body').innerText(),
      (body) => text.test(body),
    );
  }

  /** Polls `read` until `done` holds for its value, within UI_WAIT; returns the last value. */
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + UI_WAIT;
    let value = await read();
    while (!done(value) && Date.now() < deadline) {
      await page.waitForTimeout(250);
      value = await read();
    }
    if (!done(value))
      throw new Error(`gave up waiting; last value: ${JSON.stringify(value).slice(0, 300)}`);
    return value;
  }

  /** Waits for the UI's call to Flagkeeper matching method and path, and returns its status. */
  function call(method: string, path: RegExp): Promise<number> {
    return page
      .waitForResponse(
        (response) =>
          response.request().method() === method && path.test(new URL(response.url()).pathname),
        { timeout: UI_WAIT },
      )
      .then((response) => response.status());
  }

  beforeAll(async () => {
    const build = unleashUiBuild();
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    ui = await serveUnleashUi(build, (t.app.getHttpServer().address() as { port: number }).port);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Nothing leaves this machine: the UI's fonts, analytics and update checks are refused.
    await context.route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
    );
    page = await context.newPage();
    page.on('response', (response) => {
      if (response.status() >= 400 && response.url().startsWith(ui.origin)) {
        const { pathname, search } = new URL(response.url());
        refused.push(`${response.request().method()} ${pathname}${search} ${response.status()}`);
      }
    });
  }, 300000);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    await t?.close();
  });

  it('signs in through the login page as the admin user', async () => {
    await flow('sign-in', async () => {
      await open('/');
      await visible(page.locator('input[name="username"]'));
      await page.fill('input[name="username"]', 'admin');
      await page.fill('input[name="password"]', ADMIN_PASSWORD);
      const login = call('POST', /^\/auth\/simple\/login$/);
      await page.keyboard.press('Enter');
      expect(await login).toBe(200);
      await visible(page.getByText('Admin', { exact: true }));
      // The session is the cookie the browser now holds; Flagkeeper knows who it is.
      const cookies = await page.context().cookies();
      expect(cookies.length).toBeGreaterThan(0);
      const me = (await page.evaluate(() => fetch('/api/admin/user').then((r) => r.json()))) as {
        user: unknown;
      };
      expect(me.user).toMatchObject({ id: expect.any(Number), name: 'Admin', isAPI: false });
    });
  });

  it('lists features with search, a filter and paging', async () => {
    await flow('feature-list', async () => {
      for (let i = 1; i <= 27; i++) {
        const name = `list-${String(i).padStart(2, '0')}`;
        await t.admin
          .post('/api/admin/projects/default/features', {
            name,
            type: i === 7 ? 'experiment' : 'release',
            description: `seeded ${i}`,
          })
          .expect(201);
      }
      await open('/projects/default');
      await shows(/Showing 1-25 items out of\s*27/);
      await visible(page.getByRole('link', { name: 'list-27', exact: true }));
      expect(await page.getByRole('link', { name: 'list-01', exact: true }).count()).toBe(0);

      // Paging: the second page holds the two oldest.
      await page.getByText('Page 1 of 2').locator('xpath=..').getByRole('button').last().click();
      await visible(page.getByRole('link', { name: 'list-01', exact: true }));
      await visible(page.getByRole('link', { name: 'list-02', exact: true }));

      // Free-text search, answered by Flagkeeper's search over names and descriptions.
      const searched = call('GET', /^\/api\/admin\/search\/features$/);
      await page.getByPlaceholder(/^Search/).fill('seeded 13');
      expect(await searched).toBe(200);
      await visible(page.getByRole('link', { name: 'list-13', exact: true }));
      await until(
        () => page.getByRole('link', { name: /^list-/ }).count(),
        (v) => v === 1,
      );
      const stored = await t.admin
        .get('/api/admin/search/features?query=seeded%2013&project=IS:default')
        .expect(200);
      expect(stored.body.features.map((f: { name: string }) => f.name)).toEqual(['list-13']);
      await page.getByPlaceholder(/^Search/).fill('');

      // A filter: the type, through the "Add filter" menu.
      await page.getByText('Add filter').click();
      await page.getByRole('menuitem', { name: /type/i }).click();
      await page.getByText('Experiment', { exact: true }).click();
      await page.keyboard.press('Escape');
      await visible(page.getByRole('link', { name: 'list-07', exact: true }));
      await until(
        () => page.getByRole('link', { name: /^list-/ }).count(),
        (v) => v === 1,
      );
      const experiments = await t.admin
        .get('/api/admin/search/features?type=IS:experiment')
        .expect(200);
      expect(experiments.body.features.map((f: { name: string }) => f.name)).toEqual(['list-07']);
    });
  });

  it('turns an environment on and off', async () => {
    await flow('toggle', async () => {
      const development = async (): Promise<boolean> => {
        const stored = await t.admin
          .get('/api/admin/projects/default/features/ui-toggle')
          .expect(200);
        return stored.body.environments.find((e: { name: string }) => e.name === 'development')
          .enabled;
      };
      // Seeded through the API: the UI's create dialog needs POST /api/admin/features/validate,
      // which lands with the validation routes (another branch).
      await t.admin
        .post('/api/admin/projects/default/features', { name: 'ui-toggle', type: 'release' })
        .expect(201);
      // The newest flag, so on the first page whatever else the list holds, once the filter the
      // list flow left behind (the UI keeps it in local storage) is gone.
      await page.evaluate(() =>
        // Runs in the page, where localStorage exists; the test's own types know no DOM.
        (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear(),
      );
      await open('/projects/default');
      // The list is drawn with divs, not table rows: the row is the link's nearest ancestor that
      // holds checkboxes. Its first checkbox selects it; the next is the development switch.
      // The link's accessible name is empty (an empty aria-label inside), so it is found by its target.
      const link = page.locator('a[href="/projects/default/features/ui-toggle"]');
      await visible(link);
      const row = link.locator('xpath=ancestor::*[.//input[@type="checkbox"]][1]');
      const toggle = row.locator('input[type="checkbox"]').nth(1);
      const on = call('POST', /\/environments\/development\/on$/);
      await toggle.click();
      expect(await on).toBeLessThan(300);
      await until(
        () => toggle.isChecked(),
        (v) => v,
      );
      expect(await development()).toBe(true);

      const off = call('POST', /\/environments\/development\/off$/);
      await toggle.click();
      expect(await off).toBeLessThan(300);
      await until(
        () => toggle.isChecked(),
        (v) => !v,
      );
      expect(await development()).toBe(false);
    });
  });

  it('exports features selected in the list', async () => {
    await flow('export', async () => {
      await page.evaluate(() =>
        // Runs in the page, where localStorage exists; the test's own types know no DOM.
        (globalThis as unknown as { localStorage: { clear(): void } }).localStorage.clear(),
      );
      await open('/projects/default');
      for (const name of ['list-27', 'list-26']) {
        const link = page.locator(`a[href="/projects/default/features/${name}"]`);
        await visible(link);
        await link
          .locator('xpath=ancestor::*[.//input[@type="checkbox"]][1]')
          .locator('input[type="checkbox"]')
          .first()
          .check();
      }
      await shows(/2\s*selected/i);
      await page.getByRole('button', { name: /^Export$/ }).click();
      const exported = page.waitForResponse(
        (r) =>
          r.request().method() === 'POST' &&
          new URL(r.url()).pathname === '/api/admin/features-batch/export',
        { timeout: UI_WAIT },
      );
      await page.getByRole('button', { name: /^Export selection$/ }).click();
      const answer = await exported;
      expect(answer.status()).toBe(200);
      const body = await answer.json();
      expect(body.features.map((f: { name: string }) => f.name).sort()).toEqual([
        'list-26',
        'list-27',
      ]);
      // What the UI downloaded is what Flagkeeper exports for the same request.
      const request = answer.request().postDataJSON();
      const stored = await t.admin.post('/api/admin/features-batch/export', request).expect(200);
      expect(stored.body.features).toEqual(body.features);
    });
  });

  it('creates and deletes an API token', async () => {
    await flow('api-token', async () => {
      await open('/admin/api/create-token');
      const name = page.getByRole('textbox', { name: 'Token name' });
      await visible(name);
      await name.fill('ui-token');
      const created = call('POST', /^\/api\/admin\/api-tokens$/);
      await page.getByRole('button', { name: /^Create/ }).click();
      expect(await created).toBe(201);
      let stored = await t.admin.get('/api/admin/api-tokens').expect(200);
      expect(stored.body.tokens.map((x: { tokenName: string }) => x.tokenName)).toContain(
        'ui-token',
      );
      await open('/admin/api');
      const row = page.getByRole('row').filter({ hasText: 'ui-token' });
      await visible(row);
      await row.getByRole('button').last().click();
      const removed = call('DELETE', /^\/api\/admin\/api-tokens\//);
      await page.getByRole('button', { name: "Yes, I'm sure" }).click();
      expect(await removed).toBeLessThan(300);
      await until(
        () => row.count(),
        (v) => v === 0,
      );
      stored = await t.admin.get('/api/admin/api-tokens').expect(200);
      expect(stored.body.tokens.map((x: { tokenName: string }) => x.tokenName)).not.toContain(
        'ui-token',
      );
    });
  });

  it("records the signed-in user's changes in the event log", async () => {
    await flow('events', async () => {
      // The toggles above were the signed-in user's; Flagkeeper recorded them under that user.
      const events = await t.admin.get('/api/admin/events?feature=ui-toggle').expect(200);
      const toggles = events.body.events.filter((e: { type: string }) =>
        e.type.startsWith('feature-environment-'),
      );
      expect(toggles.map((e: { type: string }) => e.type)).toEqual([
        'feature-environment-disabled',
        'feature-environment-enabled',
      ]);
      for (const event of toggles) {
        expect(event).toMatchObject({
          createdBy: 'Admin',
          createdByUserId: expect.any(Number),
          environment: 'development',
        });
      }
    });
  });
});
