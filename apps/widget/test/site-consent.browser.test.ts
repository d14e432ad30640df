// One choice across a site (issue 28): the choice cookie on the registrable domain holds on the
// property's hostname and its subdomains, never for another property, and only until the max age.
import type { BrowserContext, Page } from 'playwright-core';
import { booted, eventually, evaluate, widgetTestBed } from './support/browser';
import { defaultSettings, PROPERTY_ID } from './support/fake-platform';

const bed = widgetTestBed(['shop.test']);

const NOTICE = '[data-privacy-widget]';
const OTHER_ID = 'prop_widget_test_2';
const DAY = 864e5;
const ran = (page: Page, flag: string) => evaluate<number | null>(page, 'window.' + flag + ' || null');
const goto = async (context: BrowserContext, host: string, property?: string) => {
  const page = await context.newPage();
  await page.goto(bed.platform.pageUrl('index.html', host, property));
  return page;
};

beforeEach(() => {
  bed.platform.settings = defaultSettings({ hostname: 'shop.test' });
  bed.platform.others[OTHER_ID] = defaultSettings({ property_id: OTHER_ID, hostname: 'news.shop.test' });
});

/** A choice as an older page left it: analytics granted, made `ageDays` ago, its cookie still unexpired. */
async function storedChoice(context: BrowserContext, ageDays: number) {
  const at = (Date.now() - ageDays * DAY).toString(36);
  await context.addCookies([
    {
      name: 'pw_' + PROPERTY_ID,
      value: ['rev-1', 2 | 16, at, 'nonce-from-an-older-page'].join('.'),
      domain: '.shop.test',
      path: '/',
      expires: Math.floor(Date.now() / 1000) + 30 * 86400,
      sameSite: 'Lax',
    },
  ]);
}

describe('one choice across a site', () => {
  it('when the visitor chooses on www, then shop.test and blog.shop.test apply it without asking', async () => {
    expect(bed.platform.settings.cookie_domain).toBe('shop.test');
    const context = await bed.visitor();
    const www = await goto(context, 'www.shop.test');
    await www.locator('[data-consent-action="settings"]').click();
    await www.locator('[data-consent-category="analytics"]').check();
    await www.locator('[data-consent-action="save"]').click();
    await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'pw_' + PROPERTY_ID);
    expect(cookie).toMatchObject({ domain: '.shop.test', path: '/', sameSite: 'Lax', secure: false });
    expect(cookie.expires * 1000).toBeGreaterThan(Date.now() + 364 * DAY);
    expect(cookie.expires * 1000).toBeLessThan(Date.now() + 366 * DAY);
    // One truth: the cookie holds the choice, this origin's storage none.
    expect(await evaluate(www, `localStorage.getItem('privacywidget:${PROPERTY_ID}:choice')`)).toBeNull();

    for (const host of ['blog.shop.test', 'shop.test']) {
      const page = await goto(context, host);
      await booted(page);
      expect(await ran(page, 'analyticsBeforeBodyEnd')).toBe(1); // the loader applied it as the page parsed
      expect(await ran(page, 'marketingRan')).toBeNull();
      expect(await page.locator(NOTICE).count()).toBe(0);
      expect(await evaluate(page, 'PrivacyWidget.getConsent()')).toEqual({
        necessary: true,
        functional: false,
        analytics: true,
        marketing: false,
      });
    }
    expect(bed.platform.receipts).toHaveLength(1); // one choice, one receipt
  });

  it('when another property sits on a sibling hostname, then it still asks and runs nothing', async () => {
    const context = await bed.visitor();
    const www = await goto(context, 'www.shop.test');
    await www.locator('[data-consent-action="accept"]').click();
    await eventually(
      () => ran(www, 'marketingRan'),
      (v) => v === 1,
    );
    const news = await goto(context, 'news.shop.test', OTHER_ID);
    await news.locator(NOTICE).waitFor();
    expect(await ran(news, 'analyticsRan')).toBeNull();
    expect(await ran(news, 'marketingRan')).toBeNull();
    expect((await context.cookies()).map((c) => c.name)).toEqual(['pw_' + PROPERTY_ID]);
  });

  it('when a choice is older than 12 months, then it is not applied and the visitor is asked again', async () => {
    const context = await bed.visitor();
    await storedChoice(context, 366);
    const page = await goto(context, 'blog.shop.test');
    await page.locator(NOTICE).waitFor();
    expect(await ran(page, 'analyticsRan')).toBeNull();
  });

  it('when the property shortens the max age, then an older choice is asked again and, unanswered, no longer applied', async () => {
    bed.platform.settings = defaultSettings({ hostname: 'shop.test', consent_max_age_days: 30 });
    const context = await bed.visitor();
    await storedChoice(context, 20);
    const young = await goto(context, 'www.shop.test');
    await booted(young);
    expect(await ran(young, 'analyticsBeforeBodyEnd')).toBe(1);
    expect(await young.locator(NOTICE).count()).toBe(0);

    await storedChoice(context, 31);
    const old = await goto(context, 'www.shop.test');
    await old.locator(NOTICE).waitFor();
    await old.reload(); // this origin's loader now knows the max age: the old choice runs nothing
    await old.locator(NOTICE).waitFor();
    expect(await ran(old, 'analyticsRan')).toBeNull();
    await old.locator('[data-consent-action="reject"]').click();
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body.categories).toEqual({ functional: false, analytics: false, marketing: false });
  });
});
