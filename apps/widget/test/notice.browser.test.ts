// The consent notice in real Chromium on a customer's page: notice types, script blocking until
// consent, remembered choices, revisions, GPC, keyboard use, accessibility (axe-core).
import type { Page } from 'playwright-core';
import { OPT_OUT_REGIONS } from '@platform/contracts/widget-regime';
import {
  booted,
  computed,
  eventually,
  evaluate,
  screenshot,
  seriousViolations,
  widgetTestBed,
} from './support/browser';
import { defaultSettings } from './support/fake-platform';

const bed = widgetTestBed();

const open = (opts: { gpc?: boolean } = {}) => bed.open(opts);
const NOTICE = '[data-privacy-widget]';
const ran = (page: Page, flag: string) => evaluate<number | null>(page, 'window.' + flag + ' || null');

describe('the notice', () => {
  it.each(['CLASSIC', 'DISCRETE', 'FOOTER', 'TOP'])('shows as %s, coloured with primary_color', async (type) => {
    bed.platform.settings = defaultSettings({ notice_type: type, primary_color: '#1d4ed8' });
    const page = await open();
    const notice = page.locator(NOTICE);
    await notice.waitFor();
    expect(await notice.getAttribute('data-notice-type')).toBe(type);
    const accept = page.locator('[data-consent-action="accept"]');
    const reject = page.locator('[data-consent-action="reject"]');
    const style = async (l: typeof accept) =>
      (await computed(l, ['backgroundColor', 'color', 'fontSize', 'fontWeight'])).join('|');
    expect((await style(accept)).split('|').slice(0, 2)).toEqual(['rgb(29, 78, 216)', 'rgb(255, 255, 255)']);
    expect(await style(reject)).toBe(await style(accept)); // equally prominent
    const box = await notice.boundingBox();
    if (type === 'TOP') expect(box?.y).toBe(0);
    if (type === 'FOOTER') expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(720);
    await screenshot(page, 'notice-' + type.toLowerCase());
  });

  it('is not shown when the property has no scripts, and marked scripts are not blocked', async () => {
    bed.platform.settings = defaultSettings({ has_scripts: false });
    const page = await open();
    await eventually(
      () => ran(page, 'analyticsRan'),
      (v) => v === 1,
    );
    expect(await page.locator(NOTICE).count()).toBe(0);
  });
});

describe('isolation', () => {
  it("keeps the page's styles out and its own in, and adds no globals but PrivacyWidget and dataLayer", async () => {
    const context = await bed.visitor();
    await context.addInitScript({ content: 'window.__before = Object.getOwnPropertyNames(window);' });
    const page = await context.newPage();
    await page.goto(bed.platform.pageUrl());
    await page.locator(NOTICE).waitFor();
    const added = await evaluate<string[]>(
      page,
      'Object.getOwnPropertyNames(window).filter((k) => !window.__before.includes(k))',
    );
    const pageOwn = ['__before', 'consentEvents', 'pageWorks', 'analyticsBeforeBodyEnd'];
    expect(added.filter((k) => !pageOwn.includes(k)).sort()).toEqual(['PrivacyWidget', 'dataLayer']);
    const [bg, size, font] = await computed(page.locator('[data-consent-action="accept"]'), [
      'backgroundColor',
      'fontSize',
      'fontFamily',
    ]);
    expect([bg, size]).toEqual(['rgb(29, 78, 216)', '15px']);
    expect(font).not.toContain('cursive');
    expect(await computed(page.locator('#buy'), ['backgroundColor', 'fontSize'])).toEqual(['rgb(255, 0, 0)', '30px']);
    expect(await page.locator('head style').count()).toBe(1); // the page's own: the widget's styles live in its shadow root
  });
});

describe('script blocking and choices', () => {
  it('runs a text/plain analytics script only after Accept all, records the receipt, and remembers it on reload', async () => {
    const page = await open();
    await page.locator(NOTICE).waitFor();
    expect(await ran(page, 'analyticsRan')).toBeNull();
    expect(await ran(page, 'marketingRan')).toBeNull();
    const defaults = await evaluate<unknown[]>(
      page,
      'JSON.parse(JSON.stringify(window.dataLayer.map((a) => Array.from(a))))',
    );
    // Consent Mode v2 region defaults: granted where the law is an opt-out (US states), denied elsewhere.
    expect(defaults[0]).toEqual([
      'consent',
      'default',
      expect.objectContaining({ ad_storage: 'granted', analytics_storage: 'granted', region: OPT_OUT_REGIONS }),
    ]);
    expect(defaults[1]).toEqual([
      'consent',
      'default',
      expect.objectContaining({
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
        analytics_storage: 'denied',
      }),
    ]);
    expect(defaults[1]).not.toHaveProperty('2.region');

    await page.locator('[data-consent-action="accept"]').click();
    await eventually(
      () => ran(page, 'analyticsRan'),
      (v) => v === 1,
    );
    await eventually(
      () => ran(page, 'marketingRan'),
      (v) => v === 1,
    );
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.origin).toBe('http://shop.example.test:' + bed.platform.port);
    expect(receipt.body).toEqual({
      receipt_type: 'COOKIE_CONSENT',
      subject: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
      consent_revision: 'rev-1',
      categories: { functional: true, analytics: true, marketing: true },
      gpc: false,
      widget_version: expect.any(String),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
      language: 'en', // the language the visitor read (the settings' language)
      regime: 'OPT_IN', // the settings' regime: the notice the visitor answered
    });
    const all = { necessary: true, functional: true, analytics: true, marketing: true };
    expect(await evaluate(page, 'PrivacyWidget.getConsent()')).toEqual(all);
    expect(await evaluate(page, 'window.consentEvents')).toEqual([all]);
    const update = await evaluate<unknown[]>(page, 'Array.from(window.dataLayer[window.dataLayer.length - 1])');
    expect(update).toEqual([
      'consent',
      'update',
      expect.objectContaining({ analytics_storage: 'granted', ad_storage: 'granted' }),
    ]);

    await page.reload();
    await booted(page);
    expect(bed.platform.settingsAnswers).toEqual([200, 304]); // one request per page, revalidated with the ETag
    expect(await ran(page, 'analyticsRan')).toBe(1); // runs again on the next page, without asking
    expect(await ran(page, 'analyticsBeforeBodyEnd')).toBe(1); // ...as the page parses, before the body's last script
    expect(await page.locator(NOTICE).count()).toBe(0);
    expect(bed.platform.receipts).toHaveLength(1);
  });

  it('never runs it after Reject all, on this page or the next', async () => {
    const page = await open();
    await page.locator('[data-consent-action="reject"]').click();
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body.categories).toEqual({ functional: false, analytics: false, marketing: false });
    expect(await page.locator(NOTICE).count()).toBe(0);
    await page.reload();
    await booted(page);
    expect(await evaluate(page, 'window.pageWorks')).toBe(true);
    expect(await ran(page, 'analyticsRan')).toBeNull();
    expect(await ran(page, 'marketingRan')).toBeNull();
    expect(await page.locator(NOTICE).count()).toBe(0);
    expect(await evaluate(page, 'PrivacyWidget.getConsent()')).toEqual({
      necessary: true,
      functional: false,
      analytics: false,
      marketing: false,
    });
  });

  it('saves a per-category choice from the settings view (necessary always on)', async () => {
    const page = await open();
    await page.locator('[data-consent-action="settings"]').click();
    const necessary = page.locator('[data-consent-category="necessary"]');
    expect(await necessary.isChecked()).toBe(true);
    expect(await necessary.isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'notice-settings');
    await page.locator('[data-consent-category="analytics"]').check();
    await page.locator('[data-consent-action="save"]').click();
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body.categories).toEqual({ functional: false, analytics: true, marketing: false });
    await eventually(
      () => ran(page, 'analyticsRan'),
      (v) => v === 1,
    );
    expect(await ran(page, 'marketingRan')).toBeNull();
  });

  it('asks again when the consent revision changes, and stops applying the old choice once it knows', async () => {
    const page = await open();
    await page.locator('[data-consent-action="accept"]').click();
    await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    bed.platform.settings = defaultSettings({ consent_revision: 'rev-2' });
    await page.reload();
    await page.locator(NOTICE).waitFor();
    await page.reload(); // the visitor did not answer: the rev-1 choice no longer runs scripts
    await page.locator(NOTICE).waitFor();
    expect(await ran(page, 'analyticsRan')).toBeNull();
    await page.locator('[data-consent-action="accept"]').click();
    await eventually(
      () => ran(page, 'analyticsRan'),
      (v) => v === 1,
    );
    const receipts = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 2,
    );
    expect(receipts[1].body.consent_revision).toBe('rev-2');
  });

  it('keeps a choice made while receipts are down and sends its receipt from the next page, once', async () => {
    bed.platform.receiptStatus = 503;
    const page = await open();
    const receiptAnswer = (status: number) =>
      page.waitForResponse((r) => r.url().endsWith('/receipts') && r.status() === status);
    await Promise.all([receiptAnswer(503), page.locator('[data-consent-action="reject"]').click()]);
    expect(bed.platform.receipts).toHaveLength(0);
    bed.platform.receiptStatus = 201;
    await page.reload();
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body.categories).toEqual({ functional: false, analytics: false, marketing: false });
    expect(await page.locator(NOTICE).count()).toBe(0);
    await page.reload(); // sent: not again
    await booted(page);
    await page.evaluate("PrivacyWidget.open('consent')");
    await page.locator('[data-consent-category="analytics"]').check();
    await Promise.all([receiptAnswer(201), page.locator('[data-consent-action="save"]').click()]);
    expect(bed.platform.receipts.map((r) => r.body.categories)).toEqual([
      { functional: false, analytics: false, marketing: false },
      { functional: false, analytics: true, marketing: false },
    ]);
  });

  it('when a receipt meets 404 (a property created moments ago), then it is tried again shortly and sent once', async () => {
    bed.platform.receiptStatusesFirst.push(404, 404);
    const page = await open();
    await page.locator('[data-consent-action="accept"]').click();
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body.categories).toEqual({ functional: true, analytics: true, marketing: true });
    expect(bed.platform.receiptPosts).toBe(3);
  });

  it('when Global Privacy Control is on and the visitor ticks marketing, then marketing stays off and is sent off', async () => {
    const page = await open({ gpc: true });
    await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    await booted(page);
    await page.evaluate("PrivacyWidget.open('consent')");
    await page.locator('[data-consent-category="analytics"]').check();
    await page.locator('[data-consent-category="marketing"]').check();
    await page.locator('[data-consent-action="save"]').click();
    const receipts = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 2,
    );
    expect(receipts[1].body).toMatchObject({
      gpc: true,
      categories: { functional: false, analytics: true, marketing: false },
    });
    expect(await evaluate(page, 'PrivacyWidget.getConsent().marketing')).toBe(false);
    expect(await ran(page, 'marketingRan')).toBeNull();
  });

  it('honours Global Privacy Control: an opt-out receipt without a notice, once per revision', async () => {
    const page = await open({ gpc: true });
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body).toMatchObject({
      gpc: true,
      categories: { functional: false, analytics: false, marketing: false },
      consent_revision: 'rev-1',
    });
    await booted(page);
    expect(await page.locator(NOTICE).count()).toBe(0);
    expect(await ran(page, 'marketingRan')).toBeNull();
    await page.reload();
    await booted(page);
    expect(await evaluate(page, 'PrivacyWidget.getConsent().marketing')).toBe(false);
    expect(bed.platform.receipts).toHaveLength(1);
  });
});

describe('activation views', () => {
  it('posts a page view only while the property is not active', async () => {
    bed.platform.settings = defaultSettings({ active: false });
    const page = await open();
    const [view] = await eventually(
      () => bed.platform.views,
      (v) => v.length === 1,
    );
    expect(view.origin).toBe('http://shop.example.test:' + bed.platform.port);
    expect(view.body.url).toBe(bed.platform.pageUrl());

    // Whatever the first page still had in flight lands before the active property's page loads.
    await page.waitForLoadState('networkidle');
    bed.platform.settings = defaultSettings({ active: true });
    const posted: string[] = [];
    page.on('request', (r) => posted.push(r.method() + ' ' + new URL(r.url()).pathname));
    await page.reload();
    await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/receipts')),
      page.locator('[data-consent-action="accept"]').click(),
    ]);
    expect(posted.filter((p) => p.endsWith('/views'))).toEqual([]);
    expect(bed.platform.views).toHaveLength(1);
  });
});

describe('keyboard and accessibility', () => {
  it('can be answered with the keyboard alone, with focus visible', async () => {
    const page = await open();
    await page.locator(NOTICE).waitFor();
    const focusedAction = () =>
      evaluate<string | null>(
        page,
        "document.querySelector('[data-privacy-widget-host]').shadowRoot.activeElement?.getAttribute('data-consent-action') ?? null",
      );
    expect(await focusedAction()).toBeNull(); // the notice does not steal focus...
    await page.keyboard.press('Tab'); // ...but comes first in tab order
    expect(await focusedAction()).toBe('reject');
    await page.keyboard.press('Tab');
    expect(await focusedAction()).toBe('accept');
    const [outline] = await computed(page.locator('[data-consent-action="accept"]'), ['outlineStyle']);
    expect(outline).toBe('solid');
    await page.keyboard.press('Enter');
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body.categories).toEqual({ functional: true, analytics: true, marketing: true });
  });

  it('opens the settings view, toggles a category and saves with the keyboard', async () => {
    const page = await open();
    await page.locator(NOTICE).waitFor();
    const focused = () =>
      evaluate<string | null>(
        page,
        "(() => { const a = document.querySelector('[data-privacy-widget-host]').shadowRoot.activeElement; return a && (a.getAttribute('data-consent-action') || a.getAttribute('data-consent-category')); })()",
      );
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('settings');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('functional');
    await page.keyboard.press('Space');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('save');
    await page.keyboard.press('Enter');
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body.categories).toEqual({ functional: true, analytics: false, marketing: false });
  });

  it.each(['CLASSIC', 'DISCRETE', 'FOOTER', 'TOP'])(
    'has no serious or critical axe-core violation as %s',
    async (type) => {
      bed.platform.settings = defaultSettings({ notice_type: type });
      const page = await open();
      await page.locator(NOTICE).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    },
  );
});
