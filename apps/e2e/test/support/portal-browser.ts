// The partner portal in real Chromium against the shared platform: its users sign in the way a
// person does (the link from the mail catcher), and every screen a test shows is screenshotted and
// checked with axe-core.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { saveScreenshot, waitFor } from '@platform/testing';
import type { System } from './system';

const ARTIFACTS = path.resolve(__dirname, '../../artifacts');
/** The portal's browser tests' settings (apps/portal/test/support/browser.ts). */
const CONTEXT = { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', locale: 'en-GB' } as const;
/**
 * The e-mail template preview is the partner's own e-mail in a frame sandboxed without scripts
 * (axe cannot run inside it, and it is not the portal's markup).
 */
const NOT_OURS = ['.preview-frame'];
const LINK = /http:\/\/[^\s"<>]+\/sign-in#token=[\w.~-]+/;

/** The portal's address on the platform: the gateway serves it under /app/. */
export const portalUrl = (sys: System, appPath = '/') => `${sys.gateway}/app${appPath}`;

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

/** A screen as the user sees it: settled, screenshotted as portal-<name>.png, with no serious axe violation. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await settled(page);
  await saveScreenshot(page, ARTIFACTS, `portal-${name}`);
  expect({ screen: name, violations: await seriousViolations(page) }).toEqual({ screen: name, violations: [] });
}

/** The sign-in links the platform e-mailed, read from the mail catcher; each is handed out once. */
export function signInLinks(sys: System) {
  const taken = new Set<string>();
  return {
    /** The newest unused link in an e-mail to `email` whose subject matches. */
    next: async (email: string, subject: RegExp): Promise<string> => {
      const mail = await sys.smtp.waitForMessage((m) => {
        const link = LINK.exec(m.decoded)?.[0];
        return m.to.includes(email) && subject.test(m.subject) && !!link && !taken.has(link);
      }, 15_000);
      const link = LINK.exec(mail.decoded)![0];
      taken.add(link);
      return link;
    },
  };
}

/** A fresh browser profile (no cookies) on a page of its own. */
export async function newPortalPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext(CONTEXT);
  return context.newPage();
}

/** The session's CSRF token, read from the API with the page's cookie, for API calls as that user. */
export async function csrfTokenOf(page: Page, sys: System): Promise<string> {
  const answer = await page.context().request.get(`${sys.gateway}/portal/auth/session`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { result: { csrf_token: string } }).result.csrf_token;
}
