// The widget tests' browser helpers: libs/testing's Chromium helpers bound to the fake site.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { computedStyle, inPage, launchChromium, newVisitor, saveScreenshot, waitFor, widgetAxeViolations, widgetBooted } from '@platform/testing';
import { SITE } from './fake-platform';

const ARTIFACTS = path.resolve(__dirname, '../artifacts');

export const launch = () => launchChromium([SITE]);
export const visitor = newVisitor;
export const booted = widgetBooted;
export const screenshot = (page: Page, name: string) => saveScreenshot(page, ARTIFACTS, name);
export const seriousViolations = widgetAxeViolations;
export const computed = computedStyle;
export const evaluate = inPage;

/** Polls until `check` holds (deadline, no fixed sleeps); resolves to the value read. */
export function eventually<T>(read: () => T | Promise<T>, check: (v: T) => boolean, timeoutMs = 10000): Promise<T> {
  return waitFor(async () => {
    const value = await read();
    return check(value) ? { value } : undefined;
  }, { timeoutMs, what: 'a widget condition' }).then((r) => r.value);
}
