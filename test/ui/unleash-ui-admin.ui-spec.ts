import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../support/test-app';
import { launchChromium } from './browser';
import { serveUnleashUi, UiServer, unleashUiBuild } from './unleash-ui';

/**
 * Unleash's admin UI 7.5.1 against Flagkeeper, the screens outside the feature page: the forms of
 * segments, context fields and tag types, the environments page's clone dialog, the project
 * page's import dialog and the event log. Signed in as the admin user through the login page;
 * every step checks what the page shows and what Flagkeeper stored, read through the admin API.
 *
 * The flows share one signed-in page and run in order; the event log flow reads what the earlier
 * ones wrote.
 */

/** Long enough for a loaded 2-core machine; a missing element still fails in bounded time. */
const UI_WAIT = 20000;
/** The project page's time limit per step: it keeps the browser busy (see the import flow). */
const SLOW_PAGE_WAIT = 90000;
const SHOTS = join(tmpdir(), 'flagkeeper-ui-shots');

interface Named {
  name: string;
}

describe("Unleash's admin UI 7.5.1 against Flagkeeper: admin screens", () => {
  let t: TestApp;
  let ui: UiServer;
  let browser: Browser;
  let page: Page;
  let adminId: number;
  /** The UI's calls that Flagkeeper refused, newest last, to explain a failing flow. */
  const refused: string[] = [];

  /** Runs one flow; on failure keeps a screenshot of the page to show what the UI said. */
  async function flow(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      mkdirSync(SHOTS, { recursive: true });
      const file = join(SHOTS, `admin-${name.replace(/\W+/g, '-')}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.error(`${name}: screenshot ${file}\nrefused calls:\n${refused.slice(-8).join('\n')}`);
      throw error;
    }
  }

  async function open(path: string): Promise<void> {
    await page.goto(`${ui.origin}${path}`);
  }

  /** The time limit of a step: UI_WAIT, or SLOW_PAGE_WAIT on the project page. */
  let wait = UI_WAIT;

  /** Polls `read` until `done` holds for its value, within `wait`; returns the last value. */
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + wait;
    let value = await read();
    while (!done(value) && Date.now() < deadline) {
      await page.waitForTimeout(250);
      value = await read();
    }
    if (!done(value))
      throw new Error(`gave up waiting; last value: ${JSON.stringify(value).slice(0, 300)}`);
    return value;
  }

  /**
   * One-shot checks polled, rather than locator.waitFor: on some pages the UI keeps
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

  /** Waits for the UI's call to Flagkeeper matching method and path, and returns its status. */
  function call(method: string, path: RegExp): Promise<number> {
    return page
      .waitForResponse(
        (response) =>
          response.request().method() === method && path.test(new URL(response.url()).pathname),
        { timeout: wait },
      )
      .then((response) => response.status());
  }

  /** Fills a text field found by its label, replacing what it held. */
  async function fill(label: string | RegExp, value: string): Promise<void> {
    const field = page.getByLabel(label).first();
    await visible(field);
    await field.fill(value);
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
    page.on('response', async (response) => {
      if (response.status() >= 400 && response.url().startsWith(ui.origin)) {
        const { pathname, search } = new URL(response.url());
        const request = response.request();
        // A refused write shows what the UI sent and what Flagkeeper said about it.
        const sent = request.postData()?.slice(0, 300) ?? '';
        const said = request.method() === 'GET' ? '' : await response.text().catch(() => '');
        refused.push(
          `${request.method()} ${pathname}${search} ${response.status()} ${sent} ${said.slice(0, 300)}`,
        );
      }
    });

    await open('/');
    const username = page.locator('input[name="username"]');
    await visible(username);
    await username.fill('admin');
    await page.fill('input[name="password"]', ADMIN_PASSWORD);
    const login = call('POST', /^\/auth\/simple\/login$/);
    await page.keyboard.press('Enter');
    expect(await login).toBe(200);
    await visible(page.getByText('Admin', { exact: true }));
    const users = await t.admin.get('/api/admin/user-admin').expect(200);
    adminId = users.body.users.find((u: { username: string }) => u.username === 'admin').id;
  }, 300000);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    await t?.close();
  });

  it('creates and edits a segment through its form', async () => {
    await flow('segment', async () => {
      await open('/segments/create');
      await fill(/^Segment name/, 'ui-segment');
      await fill(/^Description/, 'made in the UI');
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      const created = call('POST', /^\/api\/admin\/segments$/);
      await page.getByRole('button', { name: /^Create segment$/ }).click();
      expect(await created).toBe(201);
      await visible(page.getByText('ui-segment', { exact: true }));
      const segment = async () => {
        const list = await t.admin.get('/api/admin/segments').expect(200);
        return list.body.segments.find((s: Named) => s.name === 'ui-segment');
      };
      const stored = await segment();
      expect(stored).toMatchObject({ name: 'ui-segment', description: 'made in the UI' });

      await open(`/segments/edit/${stored.id}`);
      const description = page.getByLabel(/^Description/).first();
      await until(
        () => description.inputValue().catch(() => ''),
        (v) => v === 'made in the UI',
      );
      await description.fill('edited in the UI');
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      const saved = call('PUT', new RegExp(`^/api/admin/segments/${stored.id}$`));
      await page.getByRole('button', { name: /^Save$/ }).click();
      expect(await saved).toBeLessThan(300);
      await visible(page.getByText('edited in the UI'));
      expect(await segment()).toMatchObject({ id: stored.id, description: 'edited in the UI' });
    });
  });

  it('creates and edits a context field through its form', async () => {
    await flow('context-field', async () => {
      await open('/context/create');
      await fill('Context name', 'uiRegion');
      await fill(/^Context description/, 'where the user is');
      await fill(/^Legal value/, 'north');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await visible(page.getByText('north', { exact: true }));
      const created = call('POST', /^\/api\/admin\/context$/);
      await page.getByRole('button', { name: 'Create context', exact: true }).click();
      expect(await created).toBe(201);
      await visible(page.getByText('uiRegion', { exact: true }));
      let stored = await t.admin.get('/api/admin/context/uiRegion').expect(200);
      expect(stored.body).toMatchObject({
        name: 'uiRegion',
        description: 'where the user is',
        legalValues: [expect.objectContaining({ value: 'north' })],
      });

      await open('/context/edit/uiRegion');
      await until(
        () => page.getByText('north', { exact: true }).count(),
        (n) => n > 0,
      );
      await fill(/^Legal value/, 'south');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await visible(page.getByText('south', { exact: true }));
      const saved = call('PUT', /^\/api\/admin\/context\/uiRegion$/);
      await page.getByRole('button', { name: /^Save/ }).click();
      expect(await saved).toBeLessThan(300);
      stored = await t.admin.get('/api/admin/context/uiRegion').expect(200);
      expect(stored.body.legalValues.map((v: { value: string }) => v.value).sort()).toEqual([
        'north',
        'south',
      ]);
    });
  });

  it('creates and edits a tag type through its form', async () => {
    await flow('tag-type', async () => {
      await open('/tag-types/create');
      await fill('Tag name', 'ui-team');
      await fill('Tag description', 'owning team');
      const created = call('POST', /^\/api\/admin\/tag-types$/);
      await page.getByRole('button', { name: 'Create type', exact: true }).click();
      expect(await created).toBe(201);
      await visible(page.getByText('ui-team', { exact: true }));
      let stored = await t.admin.get('/api/admin/tag-types/ui-team').expect(200);
      expect(stored.body.tagType).toMatchObject({ name: 'ui-team', description: 'owning team' });

      await open('/tag-types/edit/ui-team');
      const description = page.getByLabel('Tag description').first();
      await until(
        () => description.inputValue().catch(() => ''),
        (v) => v === 'owning team',
      );
      await description.fill('the team that owns it');
      const saved = call('PUT', /^\/api\/admin\/tag-types\/ui-team$/);
      await page.getByRole('button', { name: /^Save/ }).click();
      expect(await saved).toBeLessThan(300);
      await visible(page.getByText('the team that owns it'));
      stored = await t.admin.get('/api/admin/tag-types/ui-team').expect(200);
      expect(stored.body.tagType.description).toBe('the team that owns it');
    });
  });

  it("clones an environment from the environments page's clone dialog", async () => {
    await flow('clone-environment', async () => {
      // A flag on in development, so the clone has something to copy.
      await t.admin
        .post('/api/admin/projects/default/features', { name: 'ui-cloned', type: 'release' })
        .expect(201);
      await t.admin
        .post('/api/admin/projects/default/features/ui-cloned/environments/development/on')
        .expect(204);
      await open('/environments');
      const actions = page.locator('#environment-development-actions');
      await visible(actions);
      await actions.click();
      await page.getByRole('menuitem', { name: /^Clone/ }).click();
      const name = page.getByLabel('Environment name').first();
      await visible(name);
      await name.fill('ui-staging');
      const cloned = call('POST', /^\/api\/admin\/environments\/development\/clone$/);
      await page.getByRole('button', { name: 'Clone environment', exact: true }).click();
      expect(await cloned).toBeLessThan(300);
      await visible(page.getByText('ui-staging', { exact: true }));
      const environments = await t.admin.get('/api/admin/environments').expect(200);
      expect(environments.body.environments.map((e: Named) => e.name)).toContain('ui-staging');
      const feature = await t.admin
        .get('/api/admin/projects/default/features/ui-cloned')
        .expect(200);
      expect(feature.body.environments.find((e: Named) => e.name === 'ui-staging')).toMatchObject({
        enabled: true,
      });
    });
  });

  it("imports another project's export through the project page's import dialog", async () => {
    await flow('import', async () => {
      await t.admin.post('/api/admin/projects', { id: 'ui-source', name: 'UI source' }).expect(201);
      await t.admin.post('/api/admin/projects', { id: 'ui-target', name: 'UI target' }).expect(201);
      for (const name of ['ui-imported-a', 'ui-imported-b']) {
        await t.admin
          .post('/api/admin/projects/ui-source/features', {
            name,
            type: 'experiment',
            description: `exported ${name}`,
          })
          .expect(201);
      }
      const exported = await t.admin
        .post('/api/admin/features-batch/export', {
          project: 'ui-source',
          environment: 'development',
        })
        .expect(200);
      // Moving a flag between projects is refused, so the target gets copies under new names.
      const file = JSON.stringify(exported.body).replaceAll('ui-imported-', 'ui-copied-');

      wait = SLOW_PAGE_WAIT;
      page.setDefaultTimeout(SLOW_PAGE_WAIT);
      await open('/projects/ui-target');
      const importButton = page.locator('[data-testid="IMPORT_BUTTON"]');
      await visible(importButton);
      // The icon button keeps the class of its loading skeleton, which Playwright's actionability
      // checks wait on; a DOM click is what a person's click does to it. The project page keeps
      // the browser's main thread busy (one attribute read took 22-28 s here on a loaded machine,
      // with no repeated API calls), so this page's steps get longer time limits.
      await importButton.evaluate(
        (button) => (button as unknown as { click(): void }).click(),
        undefined,
        { timeout: SLOW_PAGE_WAIT },
      );
      await page.locator('[data-testid="CODE_EDITOR_TAB"]').click();
      const code = page.locator('[data-testid="CODE_TEXT_FIELD"]').locator('textarea').first();
      await visible(code);
      await code.fill(file);
      const validated = call('POST', /^\/api\/admin\/features-batch\/validate$/);
      await page.locator('[data-testid="VALIDATE_BUTTON"]').click();
      expect(await validated).toBe(200);
      await shows(/You are importing this configuration in:[\s\S]*ui-target/);
      expect(await page.getByText('Conflict!').count()).toBe(0);
      // Nothing is written by the validation.
      const before = await t.admin.get('/api/admin/projects/ui-target/features').expect(200);
      expect(before.body.features).toEqual([]);

      const imported = call('POST', /^\/api\/admin\/features-batch\/import$/);
      await page.locator('[data-testid="IMPORT_CONFIGURATION_BUTTON"]').click();
      expect(await imported).toBeLessThan(300);
      await shows(/Import completed/);
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await visible(page.locator('a[href="/projects/ui-target/features/ui-copied-a"]'));
      const after = await t.admin.get('/api/admin/projects/ui-target/features').expect(200);
      expect(
        after.body.features.map((f: { name: string; type: string }) => [f.name, f.type]).sort(),
      ).toEqual([
        ['ui-copied-a', 'experiment'],
        ['ui-copied-b', 'experiment'],
      ]);
      wait = UI_WAIT;
      page.setDefaultTimeout(30000);
    });
  }, 360000);

  it("shows the signed-in user's changes in the event log page", async () => {
    await flow('event-log', async () => {
      const searched = call('GET', /^\/api\/admin\/search\/events$/);
      await open('/history');
      expect(await searched).toBe(200);
      // The newest first: the import, the clone, and the forms' changes, all by Admin.
      await shows(/features-imported/);
      await shows(/environment-cloned/);
      await shows(/tag-type-updated/);
      await shows(/context-field-updated/);
      await shows(/segment-updated/);
      const stored = await t.admin
        .get(`/api/admin/search/events?createdBy=IS:${adminId}&limit=100`)
        .expect(200);
      const types = stored.body.events.map((e: { type: string }) => e.type);
      expect(types).toEqual(
        expect.arrayContaining([
          'segment-created',
          'segment-updated',
          'context-field-created',
          'context-field-updated',
          'tag-type-created',
          'tag-type-updated',
          'environment-cloned',
          'features-imported',
        ]),
      );
      expect(stored.body.events.every((e: { createdBy: string }) => e.createdBy === 'Admin')).toBe(
        true,
      );
    });
  });
});
