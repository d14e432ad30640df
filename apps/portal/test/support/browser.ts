// The portal's browser tests: one Chromium per file (libs/testing), a fresh fake API per test, and a
// signed-in (or signed-out) page at a chosen width, with reduced motion and CSP reports collected.
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

/** axe-core's serious and critical violations on the whole page (but NOT_OURS). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const AxeBuilder = (require('@axe-core/playwright') as typeof import('@axe-core/playwright')).default;
  const result = await new AxeBuilder({ page }).exclude(NOT_OURS).analyze();
  return result.violations
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

export function portalTestBed() {
  let browser: Browser;
  let api: FakeApi;
  let context: BrowserContext | undefined;
  /** Console errors and uncaught exceptions of the current page (CSP violations show up here). */
  let consoleErrors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium([]);
  });
  afterAll(() => browser.close());
  beforeEach(async () => {
    api = await new FakeApi().start();
    consoleErrors = [];
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    await api.close();
  });
  return {
    get api() {
      return api;
    },
    get consoleErrors() {
      return consoleErrors;
    },
    /** A new browser at `viewport`; signed in as `userId` (a session cookie the fake issued) unless null. */
    async page(opts: { viewport?: { width: number; height: number }; userId?: string | null } = {}): Promise<Page> {
      await context?.close();
      context = await browser.newContext({
        viewport: opts.viewport ?? DESKTOP,
        reducedMotion: 'reduce',
        locale: 'en-GB',
      });
      const userId = opts.userId === undefined ? 'usr_admin' : opts.userId;
      if (userId) {
        const cookie = api.state.signIn(userId);
        await context.addCookies([
          { name: 'pp_session', value: cookie, url: api.origin, httpOnly: true, sameSite: 'Lax' },
        ]);
      }
      const page = await context.newPage();
      page.on('console', (m) => {
        // A refused request (the 401 of a signed-out session check) is the API speaking, not a page error.
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      return page;
    },
  };
}
