// What every console screen is held to in the browser tests: settled, no serious axe violation, no
// sideways scrolling, no console error (a CSP breach among them), and its screenshot (the whole page)
// in test/artifacts/ for a look.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { seriousViolations, settled, type portalTestBed } from './browser';

const ARTIFACTS = path.resolve(__dirname, '../artifacts');

export async function checkScreen(bed: ReturnType<typeof portalTestBed>, page: Page, name: string): Promise<void> {
  await settled(page);
  expect(await seriousViolations(page)).toEqual([]);
  const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  expect(overflow).toBe(0);
  expect(bed.consoleErrors).toEqual([]);
  expect(await misalignedTables(page)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Tables whose shown header cells and first row's shown cells differ in number (a column hidden on one only). */
const MISALIGNED_TABLES = `[...document.querySelectorAll('table')]
  .map((t) => {
    const shown = (cells) => cells.filter((c) => getComputedStyle(c).display !== 'none').length;
    const head = shown([...t.querySelectorAll('thead th')]);
    const row = t.querySelector('tbody tr');
    const body = row ? shown([...row.children]) : head;
    return head === 0 || head === body ? '' : t.closest('[aria-label]')?.getAttribute('aria-label') + ': ' + head + ' headers, ' + body + ' cells';
  })
  .filter(Boolean)`;
const misalignedTables = (page: Page) => page.evaluate(MISALIGNED_TABLES) as Promise<string[]>;

/** Whether the element has focus (inside the page's document). */
export const hasFocus = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => el === el.ownerDocument.activeElement);
