// Real Chromium (Debian's `chromium` package, or CHROMIUM_PATH) driven by playwright-core, for the
// widget's browser tests. The given site hostnames (and their subdomains) resolve to 127.0.0.1 and
// every other name fails to resolve, so no traffic leaves the machine. playwright-core and axe-core
// load only when a test uses them.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

export function launchChromium(siteHosts: string[], extraArgs: string[] = []): Promise<Browser> {
  const maps = siteHosts.flatMap((h) => [`MAP ${h} 127.0.0.1`, `MAP *.${h} 127.0.0.1`]);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      `--host-resolver-rules=${[...maps, 'MAP * ~NOTFOUND', 'EXCLUDE 127.0.0.1'].join(', ')}`,
      ...extraArgs, // e.g. --lang=de: the browser's languages (navigator.languages, Accept-Language)
    ],
  });
}

/** A fresh visitor (empty storage); with `gpc` the browser sends the Global Privacy Control signal. */
export async function newVisitor(
  browser: Browser,
  opts: { gpc?: boolean; locale?: string } = {},
): Promise<BrowserContext> {
  // locale: the visitor's navigator.languages and Accept-Language (e.g. 'de-DE').
  const context = await browser.newContext({ viewport: { width: 1100, height: 720 }, locale: opts.locale });
  if (opts.gpc) {
    await context.addInitScript({
      content: "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });",
    });
  }
  return context;
}

/** Resolves once the widget bundle booted (its shadow host exists): it has decided whether to ask. */
export async function widgetBooted(page: Page): Promise<void> {
  await page.waitForSelector('[data-privacy-widget-host]', { state: 'attached' });
}

export async function saveScreenshot(page: Page, dir: string, name: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name + '.png');
  await page.screenshot({ path: file });
  return file;
}

/** axe-core's serious and critical violations inside the widget (the host page is not ours). */
export async function widgetAxeViolations(page: Page): Promise<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const AxeBuilder = (require('@axe-core/playwright') as typeof import('@axe-core/playwright')).default;
  const result = await new AxeBuilder({ page }).include('[data-privacy-widget-host]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '));
}

/** Computed CSS properties of an element (evaluated in the page; test code has no DOM lib). */
export const computedStyle = (target: Locator, props: string[]): Promise<string[]> =>
  target.evaluate((el, names) => {
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(
      el,
    );
    return names.map((n) => style[n]);
  }, props);

/** Evaluates an expression in the page (a string: test code compiles without the DOM lib). */
export const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
