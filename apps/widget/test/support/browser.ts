// The widget tests' browser helpers: libs/testing's Chromium helpers bound to the fake site.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  computedStyle,
  inPage,
  launchChromium,
  newVisitor,
  saveScreenshot,
  waitFor,
  widgetAxeViolations,
  widgetBooted,
} from '@platform/testing';
import { FakePlatform, SITE } from './fake-platform';

const ARTIFACTS = path.resolve(__dirname, '../artifacts');

/** Chromium resolving the fake site (and `hosts`, with their subdomains) to 127.0.0.1. */
export const launch = (hosts: string[] = []) => launchChromium([SITE, ...hosts]);
export const visitor = newVisitor;
export const booted = widgetBooted;
export const screenshot = (page: Page, name: string) => saveScreenshot(page, ARTIFACTS, name);
export const seriousViolations = widgetAxeViolations;
export const computed = computedStyle;
export const evaluate = inPage;

/** Polls until `check` holds (deadline, no fixed sleeps); resolves to the value read. */
export function eventually<T>(read: () => T | Promise<T>, check: (v: T) => boolean, timeoutMs = 10000): Promise<T> {
  return waitFor(
    async () => {
      const value = await read();
      return check(value) ? { value } : undefined;
    },
    { timeoutMs, what: 'a widget condition' },
  ).then((r) => r.value);
}

/**
 * What every widget browser test file sets up: one Chromium for the file, a fresh fake platform
 * for each test, and a visitor (a new browser context, closed after the test or at the next one).
 */
export function widgetTestBed(hosts: string[] = []) {
  let browser: Browser;
  let platform: FakePlatform;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launch(hosts);
  });
  afterAll(() => browser.close());
  beforeEach(async () => {
    platform = await new FakePlatform().start();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    await platform.close();
  });

  const newVisitorContext = async (opts: { gpc?: boolean } = {}) => {
    await context?.close();
    context = await visitor(browser, opts);
    return context;
  };
  return {
    get platform() {
      return platform;
    },
    visitor: newVisitorContext,
    /** A new visitor's page at `url` (the fake site's page by default). */
    async open(opts: { url?: string; gpc?: boolean } = {}): Promise<Page> {
      const page = await (await newVisitorContext(opts)).newPage();
      await page.goto(opts.url ?? platform.pageUrl());
      return page;
    },
  };
}
