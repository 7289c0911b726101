import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, startTestApp, TestApp } from '../support/test-app';
import { launchChromium } from './browser';
import { serveUnleashUi, UiServer, unleashUiBuild } from './unleash-ui';

/** Long enough for a 2-core machine at load 20; a missing element still fails in bounded time. */
export const UI_WAIT = 30000;
const SHOTS = join(tmpdir(), 'flagkeeper-ui-shots');

/**
 * Unleash's admin UI in Chromium against a fresh Flagkeeper, signed in as the admin user through
 * the UI's login page, with the one-shot polling helpers the feature-page flows use.
 */
export class UiSession {
  /** The UI's calls that Flagkeeper refused, newest last, to explain a failing flow. */
  readonly refused: string[] = [];

  private constructor(
    readonly t: TestApp,
    readonly ui: UiServer,
    private readonly browser: Browser,
    readonly page: Page,
  ) {}

  static async start(): Promise<UiSession> {
    const build = unleashUiBuild();
    const t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    const ui = await serveUnleashUi(
      build,
      (t.app.getHttpServer().address() as { port: number }).port,
    );
    const browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // Nothing leaves this machine: the UI's fonts, analytics and update checks are refused.
    await context.route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
    );
    const session = new UiSession(t, ui, browser, await context.newPage());
    session.page.on('response', (response) => {
      if (response.status() >= 400 && response.url().startsWith(ui.origin)) {
        const { pathname, search } = new URL(response.url());
        session.refused.push(
          `${response.request().method()} ${pathname}${search} ${response.status()}`,
        );
      }
    });
    await session.signIn();
    return session;
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.ui.close();
    await this.t.close();
  }

  private async signIn(): Promise<void> {
    await this.open('/');
    const username = this.page.locator('input[name="username"]');
    await this.visible(username);
    await username.fill('admin');
    await this.page.fill('input[name="password"]', ADMIN_PASSWORD);
    const login = this.call('POST', /^\/auth\/simple\/login$/);
    await this.page.keyboard.press('Enter');
    if ((await login) !== 200) throw new Error('signing in through the login page failed');
    await this.visible(this.page.getByText('Admin', { exact: true }));
  }

  /** Runs one flow; on failure keeps a screenshot and lists what Flagkeeper refused just before. */
  async flow(name: string, body: () => Promise<void>): Promise<void> {
    const before = this.refused.length;
    try {
      await body();
    } catch (error) {
      mkdirSync(SHOTS, { recursive: true });
      const file = join(SHOTS, `${name.replace(/\W+/g, '-')}.png`);
      await this.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      const refused = this.refused.slice(before).slice(-12).join('\n');
      console.error(`${name}: screenshot ${file}\nrefused calls:\n${refused}`);
      throw error;
    }
  }

  /**
   * Opens a page of the UI without waiting for its load event, which at times comes only after
   * half a minute on this UI (a request it keeps open); the flows poll for what they need instead.
   */
  async open(path: string): Promise<void> {
    await this.page.goto(`${this.ui.origin}${path}`, { waitUntil: 'domcontentloaded' });
  }

  /**
   * Polls with one-shot checks rather than locator.waitFor: on some pages the UI keeps
   * re-rendering, which starves the animation-frame polling that waitFor relies on.
   */
  async visible(locator: Locator): Promise<void> {
    await this.until(
      () => locator.first().isVisible(),
      (shown) => shown,
    );
  }

  /**
   * Clicks once the control shows and is enabled: MUI keeps buttons aria-disabled while their
   * page loads, and a click started then can stall (its checks wait on animation frames that the
   * UI's constant re-rendering holds off), so the readiness is polled first, one shot at a time.
   */
  async press(locator: Locator): Promise<void> {
    const target = locator.first();
    await this.until(
      async () =>
        (await target.isVisible()) &&
        (await target.isEnabled()) &&
        (await target.getAttribute('aria-disabled')) !== 'true',
      (ready) => ready,
    );
    await target.click({ timeout: UI_WAIT });
  }

  /** Waits until the text of `within` (the page by default) matches. */
  async shows(text: RegExp, within: Locator = this.page.locator('body')): Promise<void> {
    await this.until(
      () => within.innerText(),
      (body) => text.test(body),
    );
  }

  /** Polls `read` until `done` holds for its value, within UI_WAIT; returns the last value. */
  async until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + UI_WAIT;
    let value = await read();
    while (!done(value) && Date.now() < deadline) {
      await this.page.waitForTimeout(250);
      value = await read();
    }
    if (!done(value))
      throw new Error(`gave up waiting; last value: ${JSON.stringify(value).slice(0, 300)}`);
    return value;
  }

  /**
   * The UI's next call to Flagkeeper matching method and path: its status and the JSON body it
   * sent (undefined when none). Start waiting before the click that makes the call.
   */
  call(method: string, path: RegExp): Promise<number> {
    return this.request(method, path).then((sent) => sent.status);
  }

  async request(method: string, path: RegExp): Promise<{ status: number; body: unknown }> {
    const response = await this.page.waitForResponse(
      (r) => r.request().method() === method && path.test(new URL(r.url()).pathname),
      { timeout: UI_WAIT },
    );
    const data = response.request().postData();
    return { status: response.status(), body: data ? JSON.parse(data) : undefined };
  }

  /** The open dialog (the UI keeps a hidden one for its command menu, so the last is the one). */
  dialog(): Locator {
    return this.page.getByRole('dialog').last();
  }
}

/** The URL of a feature's page in the UI, and of the feature in the admin API. */
export const featurePage = (name: string): string => `/projects/default/features/${name}`;
export const featureApi = (name: string): string => `/api/admin/projects/default/features/${name}`;
