// The visitor's regime in the widget against the fake platform (the real platform's GeoIP is in
// apps/e2e/test/widget-regime.system.test.ts): Consent Mode's per-property switches, and the loader
// of a later page acting on the regime the last page learnt, before the settings arrive.
import type { Page } from 'playwright-core';
import { booted, eventually, evaluate, widgetTestBed } from './support/browser';
import { defaultSettings } from './support/fake-platform';

const bed = widgetTestBed();
const NOTICE = '[data-privacy-widget]';
const ran = (page: Page, flag: string) => evaluate<number | null>(page, 'window.' + flag + ' || null');
/** The dataLayer as arrays (gtag pushes Arguments objects). */
const dataLayer = (page: Page) =>
  evaluate<unknown[][]>(page, 'JSON.parse(JSON.stringify(window.dataLayer.map((a) => Array.from(a))))');

describe('the regime in the widget', () => {
  it('when the settings say OPT_OUT with Consent Mode switches, then they are set, everything runs, and the next page runs it before the settings arrive', async () => {
    bed.platform.settings = defaultSettings({
      regime: 'OPT_OUT',
      consent_mode: { ads_data_redaction: false, url_passthrough: true },
    });
    const context = await bed.visitor();
    const first = await context.newPage();
    await first.goto(bed.platform.pageUrl());
    await first.locator(NOTICE).waitFor();
    expect(await first.locator(NOTICE).getAttribute('data-regime')).toBe('OPT_OUT');
    await eventually(
      () => ran(first, 'marketingRan'),
      (v) => v === 1,
    );
    const pushed = await dataLayer(first);
    expect(pushed).toContainEqual(['set', 'ads_data_redaction', false]);
    expect(pushed).toContainEqual(['set', 'url_passthrough', true]);
    expect(pushed).toContainEqual(['consent', 'update', expect.objectContaining({ ad_storage: 'granted' })]);

    // The next page: the loader sets the switches and grants before any tag, from what the last page stored.
    const next = await context.newPage();
    await next.goto(bed.platform.pageUrl());
    expect(await evaluate(next, 'window.analyticsBeforeBodyEnd')).toBe(1);
    const early = (await dataLayer(next)).slice(0, 5);
    expect(early.slice(2, 4)).toEqual([
      ['set', 'ads_data_redaction', false],
      ['set', 'url_passthrough', true],
    ]);
    expect(early[4]).toEqual(['consent', 'update', expect.objectContaining({ ad_storage: 'granted' })]);
    expect(bed.platform.receipts).toHaveLength(0); // nothing was chosen: no record
  });

  it('when the settings say NOTICE_ONLY, then OK records what ran with the regime, and the notice does not come back', async () => {
    bed.platform.settings = defaultSettings({ regime: 'NOTICE_ONLY' });
    const context = await bed.visitor();
    const first = await context.newPage();
    await first.goto(bed.platform.pageUrl());
    await first.locator(NOTICE).waitFor();
    expect(await first.locator('[data-consent-action="opt-out"]').count()).toBe(0);
    await first.locator('[data-consent-action="ok"]').click();
    const [receipt] = await eventually(
      () => bed.platform.receipts,
      (r) => r.length === 1,
    );
    expect(receipt.body).toMatchObject({
      regime: 'NOTICE_ONLY',
      categories: { functional: true, analytics: true, marketing: true },
    });
    const next = await context.newPage();
    await next.goto(bed.platform.pageUrl());
    await booted(next);
    expect(await next.locator(NOTICE).count()).toBe(0);
  });
});
