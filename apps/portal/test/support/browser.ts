// The portal's browser tests: one Chromium, fake API and browser context per file (libs/testing), the
// fake's seeded state again for each test, and a signed-in (or signed-out) page at a chosen width, with
// reduced motion and CSP reports collected.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, saveScreenshot, waitFor } from '@platform/testing';
import { FakeApi } from './fake-api';

const ARTIFACTS = path.resolve(__dirname, '../artifacts');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export const screenshot = (page: Page, name: string) => saveScreenshot(page, ARTIFACTS, name);

/**
 * Named deferral: the e-mail template preview is the partner's own e-mail, rendered in a frame
 * sandboxed without scripts (axe cannot run inside it, and it is not the portal's markup).
 */
const NOT_OURS = ['.preview-frame'];

/** The axe-core that @axe-core/playwright brings (the project's declared accessibility checker). */
const axeSource = (): string => {
  const from = path.dirname(require.resolve('@axe-core/playwright'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(require.resolve('axe-core', { paths: [from] })) as { source: string }).source;
};

/**
 * axe-core's serious and critical violations on the whole page (but NOT_OURS), with axe-core's
 * default rules. axe is put into the page once per document and run there: @axe-core/playwright's
 * analyze() would inject it into every frame again and finish in a new blank page each time, some
 * 2 s a call where this takes a tenth of that (the same rules, the same verdicts).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource());
  const violations = (await page.evaluate(
    `axe.run({ exclude: ${JSON.stringify(NOT_OURS)} }, { resultTypes: ['violations'] }).then((r) => r.violations)`,
  )) as { id: string; impact?: string; nodes: { target: string[] }[] }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Resolves once no loading skeleton or busy button is left on the page. */
export async function settled(page: Page): Promise<void> {
  await waitFor(
    async () => ((await page.locator('.state-loading, [aria-busy="true"]').count()) === 0 ? true : undefined),
    { timeoutMs: 10_000, what: 'the page to finish loading' },
  );
}

/**
 * One Chromium, one fake API and one browser context per test file: each test gets the fake's seeded
 * state again, no cookies, and a new page (new tab storage) at its viewport.
 */
export function portalTestBed() {
  let browser: Browser;
  let api: FakeApi;
  let context: BrowserContext;
  let page: Page | undefined;
  /** Console errors and uncaught exceptions of the current page (CSP violations show up here). */
  let consoleErrors: string[] = [];
  beforeAll(async () => {
    [browser, api] = await Promise.all([launchChromium([]), new FakeApi().start()]);
    context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce', locale: 'en-GB' });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });
  beforeEach(() => {
    api.reset();
    consoleErrors = [];
  });
  afterEach(async () => {
    await page?.close();
    page = undefined;
  });
  return {
    get api() {
      return api;
    },
    get consoleErrors() {
      return consoleErrors;
    },
    /**
     * A new tab at `viewport`; signed in as `userId` (a session cookie the fake issued) unless null,
     * and to the owner console as access user `ownerId` when given.
     */
    async page(
      opts: { viewport?: { width: number; height: number }; userId?: string | null; ownerId?: string } = {},
    ): Promise<Page> {
      await page?.close();
      await context.clearCookies();
      const userId = opts.userId === undefined ? 'usr_admin' : opts.userId;
      if (userId) {
        const cookie = api.state.signIn(userId);
        await context.addCookies([
          { name: 'pp_session', value: cookie, url: api.origin, httpOnly: true, sameSite: 'Lax' },
        ]);
      }
      if (opts.ownerId) {
        const cookie = api.state.signInOwner(opts.ownerId);
        await context.addCookies([
          { name: 'pp_owner_session', value: cookie, url: api.origin, httpOnly: true, sameSite: 'Lax' },
        ]);
      }
      page = await context.newPage();
      await page.setViewportSize(opts.viewport ?? DESKTOP);
      page.on('console', (m) => {
        // A refused request (the 401 of a signed-out session check) is the API speaking, not a page error.
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      return page;
    },
  };
}
