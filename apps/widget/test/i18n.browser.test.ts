// The visitor's language in real Chromium: a browser started with --lang=de (and Accept-Language de)
// gets the German notice, settings view and privacy center with lang="de", and its receipt names
// the language; an Arabic visitor on an Arabic page gets a right-to-left notice, mirrored; a
// property's override shows; a language the widget lacks falls back to the page's lang, then to the
// property's default. axe-core finds no serious or critical violation in any of them.
import { WIDGET_TEXTS } from '@platform/contracts/widget-texts-all';
import { launchChromium } from '@platform/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { booted, computed, eventually, seriousViolations } from './support/browser';
import { FakePlatform, SITE } from './support/fake-platform';

const NOTICE = '[data-privacy-widget]';
const SHOTS = '/tmp/shots';
const de = WIDGET_TEXTS.de;

let browser: Browser;
let platform: FakePlatform;
let context: BrowserContext | undefined;
beforeAll(async () => {
  // Headless Chromium takes its languages (navigator.languages, Accept-Language) from --accept-lang; --lang is the UI's.
  browser = await launchChromium([SITE], ['--lang=de', '--accept-lang=de']);
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

/** A new visitor; `locale` (Chromium's locale emulation) stands for a browser set to another language. */
async function visit(opts: { locale?: string; page?: string } = {}): Promise<Page> {
  const acceptLanguage = opts.locale ?? 'de';
  context = await browser.newContext({
    viewport: { width: 1100, height: 720 },
    ...(opts.locale ? { locale: opts.locale } : {}),
    extraHTTPHeaders: { 'Accept-Language': acceptLanguage },
  });
  const page = await context.newPage();
  await page.goto(platform.pageUrl() + (opts.page ?? ''));
  await page.locator(NOTICE).waitFor();
  return page;
}

const attrs = (page: Page, selector = NOTICE) =>
  page.locator(selector).evaluate((n) => [n.getAttribute('lang'), n.getAttribute('dir')]);
const x = async (page: Page, action: string) =>
  (await page.locator(`[data-consent-action="${action}"]`).boundingBox())!.x;

describe('the visitor language', () => {
  it('when Chromium runs in German, then the notice, settings view and privacy center are German, lang="de", and the receipt says de', async () => {
    const page = await visit();
    expect(await page.evaluate(() => navigator.languages[0])).toMatch(/^de/);
    expect(await attrs(page)).toEqual(['de', 'ltr']);
    expect(platform.settingsLangs).toEqual(['de']);
    expect(await page.locator('#pw-notice-title').innerText()).toBe(de.noticeTitle);
    expect(await page.locator('[data-consent-action="accept"]').innerText()).toBe(de.acceptAll);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/i18n-de-notice.png` });
    // Left to right: Reject all comes before Accept all; the corner is the property's (bottom right).
    expect(await x(page, 'reject')).toBeLessThan(await x(page, 'accept'));
    expect((await page.locator(NOTICE).boundingBox())!.x).toBeGreaterThan(500);

    await page.locator('[data-consent-action="settings"]').click();
    expect(await page.locator(`${NOTICE} label[for="pw-n-marketing"]`).innerText()).toContain(de.catMarketingText);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('[data-consent-action="save"]').click();
    const receipt = await eventually(
      () => platform.receipts[0],
      (r) => !!r,
    );
    expect(receipt.body.language).toBe('de');

    await booted(page);
    await page.evaluate("PrivacyWidget.open('dsar')");
    const center = page.locator('[data-privacy-center]');
    await center.getByText(de.dsarTitle).waitFor();
    expect(await attrs(page, '[data-privacy-center]')).toEqual(['de', 'ltr']);
    expect(await page.locator('[data-privacy-view="accessibility"]').innerText()).toBe(de.tabA11y);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/i18n-de-center.png` });
  });

  it('when an Arabic visitor opens an Arabic page, then the notice is right to left: dir="rtl", buttons and corner mirrored', async () => {
    const page = await visit({ locale: 'ar', page: '?lang=ar&dir=rtl' });
    expect(await attrs(page)).toEqual(['ar', 'rtl']);
    expect(await page.locator('[data-consent-action="accept"]').innerText()).toBe(WIDGET_TEXTS.ar.acceptAll);
    // Right to left: Reject all is right of Accept all, and the bottom-right corner becomes bottom left.
    expect(await x(page, 'reject')).toBeGreaterThan(await x(page, 'accept'));
    const box = (await page.locator(NOTICE).boundingBox())!;
    expect(box.x).toBeLessThan(100);
    expect((await computed(page.locator(NOTICE), ['direction']))[0]).toBe('rtl');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/i18n-ar-notice.png` });
    await booted(page);
    await page.evaluate('PrivacyWidget.open()');
    await page.locator('[data-privacy-center]').waitFor();
    expect(await attrs(page, '[data-privacy-center]')).toEqual(['ar', 'rtl']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/i18n-ar-center.png` });
  });

  it("when the property overrides a German text, then German visitors read the override and the rest stays the catalogue's", async () => {
    platform.textOverrides = { de: { acceptAll: 'Alles klar, einverstanden' }, fr: { rejectAll: 'Non merci' } };
    const page = await visit();
    expect(await page.locator('[data-consent-action="accept"]').innerText()).toBe('Alles klar, einverstanden');
    expect(await page.locator('[data-consent-action="reject"]').innerText()).toBe(de.rejectAll);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/i18n-de-override.png` });
  });

  it("when the browser's language is one the widget lacks, then the page's lang decides; with neither, the property's default", async () => {
    const pageLang = await visit({ locale: 'ja-JP', page: '?lang=es-MX' });
    expect(await attrs(pageLang)).toEqual(['es', 'ltr']);
    expect(await pageLang.locator('[data-consent-action="reject"]').innerText()).toBe(WIDGET_TEXTS.es.rejectAll);
    await context!.close();

    platform.defaultLanguage = 'fr';
    const page = await visit({ locale: 'ja-JP', page: '?lang=ja' });
    expect(platform.settingsLangs).toEqual(['es', '']);
    expect(await attrs(page)).toEqual(['fr', 'ltr']);
    expect(await page.locator('#pw-notice-title').innerText()).toBe(WIDGET_TEXTS.fr.noticeTitle);
    await page.locator('[data-consent-action="settings"]').click();
    expect(await page.locator(`${NOTICE} label[for="pw-n-necessary"]`).innerText()).toContain('Nécessaires');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/i18n-fallback-fr.png` });
  });
});
