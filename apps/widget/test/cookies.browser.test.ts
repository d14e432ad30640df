// The cookie list in real Chromium: the cookies the site's scan found (settings.cookies), listed
// under their category in the settings view and the privacy center, with the public hooks
// data-cc-cookie-list and data-cc-cookie="<name>".
import type { Page } from 'playwright-core';
import { booted, screenshot, seriousViolations, widgetTestBed } from './support/browser';
import { defaultSettings } from './support/fake-platform';

const bed = widgetTestBed();

const COOKIES = [
  { name: 'PHPSESSID', domain: 'shop.example.test', category: 'necessary', vendor: null, expires_at: null },
  {
    name: '_ga',
    domain: '.shop.example.test',
    category: 'analytics',
    vendor: 'Google',
    expires_at: '2028-11-24T00:00:00.000Z',
  },
  {
    name: '_gid',
    domain: '.shop.example.test',
    category: 'analytics',
    vendor: 'Google',
    expires_at: '2026-11-25T00:00:00.000Z',
  },
  {
    name: 'fr',
    domain: '.facebook.net',
    category: 'marketing',
    vendor: 'Meta',
    expires_at: '2027-02-22T00:00:00.000Z',
  },
  { name: 'theme', domain: 'shop.example.test', category: 'unclassified', vendor: null, expires_at: null },
];

const open = () => bed.open();

/** { category: [cookie names] } as the visitor sees them. */
const listed = async (page: Page, scope: string) => {
  const lists = page.locator(`${scope} [data-cc-cookie-list]`);
  const out: Record<string, (string | null)[]> = {};
  for (const list of await lists.all()) {
    out[(await list.getAttribute('data-cc-cookie-list'))!] = await list
      .locator('[data-cc-cookie]')
      .evaluateAll((items) => items.map((i) => i.getAttribute('data-cc-cookie')));
  }
  return out;
};

describe('the cookie list', () => {
  it('lists each cookie the scan found under its category in the settings view, with its vendor and expiry; categories with none have no list', async () => {
    bed.platform.settings = defaultSettings({ cookies: COOKIES });
    const page = await open();
    await page.locator('[data-consent-action="settings"]').click();
    expect(await listed(page, '[data-privacy-widget]')).toEqual({
      necessary: ['PHPSESSID'],
      analytics: ['_ga', '_gid'],
      marketing: ['fr'],
      unclassified: ['theme'],
    });
    const ga = await page.locator('[data-privacy-widget] [data-cc-cookie="_ga"]').innerText();
    expect(ga).toContain('Google');
    expect(ga).toContain('until 2028-11-24');
    expect(await page.locator('[data-cc-cookie="PHPSESSID"]').innerText()).toContain('session');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'cookie-list');
  });

  it('lists them in the privacy center too; with no cookies (never scanned) there is no list at all', async () => {
    bed.platform.settings = defaultSettings({ cookies: COOKIES });
    let page = await open();
    await booted(page);
    await page.evaluate('PrivacyWidget.open()');
    await page.locator('[data-privacy-center]').waitFor();
    expect(await listed(page, '[data-privacy-center]')).toEqual({
      necessary: ['PHPSESSID'],
      analytics: ['_ga', '_gid'],
      marketing: ['fr'],
      unclassified: ['theme'],
    });

    bed.platform.settings = defaultSettings();
    page = await open();
    await page.locator('[data-consent-action="settings"]').click();
    await page.locator('[data-consent-category="analytics"]').waitFor();
    expect(await page.locator('[data-cc-cookie-list]').count()).toBe(0);
  });
});
