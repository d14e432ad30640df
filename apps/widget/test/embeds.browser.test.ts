// Embeds behind placeholders (issue 28) in real Chromium: marked iframes load nothing before consent,
// a placeholder with the public hooks stands in their box, "Load once" loads one embed without a
// consent change, "Always allow" grants the category (a receipt) and loads all of its embeds, and
// Accept all in the notice loads every embed. The embeds' requests are answered on 127.0.0.1 (openEmbeds).
import type { Page } from 'playwright-core';
import { eventually, evaluate, screenshot, widgetTestBed } from './support/browser';

const bed = widgetTestBed();

const PH = '[data-privacy-placeholder]';
const srcs = (page: Page) =>
  evaluate<Record<string, string | null>>(
    page,
    "Object.fromEntries(Array.from(document.querySelectorAll('iframe'), (f) => [f.id, f.getAttribute('src')]))",
  );
const framesServed = (n: number) =>
  eventually(
    () => bed.platform.frames.slice(),
    (f) => f.length >= n,
  );
const consent = (page: Page) => evaluate<Record<string, boolean>>(page, 'PrivacyWidget.getConsent()');

async function openEmbeds(opts: { gpc?: boolean } = {}): Promise<Page> {
  const context = await bed.visitor(opts);
  // The embeds are https (youtube.com and google.com are HSTS-preloaded: Chromium would ask for https
  // anyway). Their requests are answered by the fake platform's plain HTTP port on 127.0.0.1.
  await context.route(/^https:\/\/[^/]+\/(maps\/)?embed\//, async (route) => {
    const url = new URL(route.request().url());
    const headers = { ...route.request().headers(), 'x-forwarded-host': url.host };
    try {
      const response = await route.fetch({ url: 'http://127.0.0.1:' + url.port + url.pathname, headers });
      await route.fulfill({ response });
    } catch (err) {
      // An embed still loading when the test ends (its page, context and platform closing): nothing
      // waits for it any more. The tests count what the platform served, so a real failure still shows.
      if (!/disposed|closed/i.test(String(err))) throw err;
    }
  });
  const page = await context.newPage();
  await page.goto(bed.platform.pageUrl('embeds.html'));
  await eventually(
    () => page.locator(PH).count(),
    (n) => n === 3,
  );
  return page;
}

async function seriousPlaceholderViolations(page: Page): Promise<string[]> {
  const AxeBuilder = (await import('@axe-core/playwright')).default;
  const result = await new AxeBuilder({ page }).include(PH).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '));
}

describe('embeds behind placeholders', () => {
  it('hold marked iframes (no src) behind an accessible placeholder naming the vendor, in the same box', async () => {
    const page = await openEmbeds();
    expect(await srcs(page)).toEqual({ v1: null, v2: null, m1: null });
    const youtube = page.locator(PH).first();
    expect(await youtube.getAttribute('data-vendor')).toBe('YouTube');
    expect(await youtube.locator('p').innerText()).toContain('This YouTube content is held until you allow Marketing.');
    expect(await page.locator(PH).nth(2).locator('p').innerText()).toContain(
      'This Google Maps content is held until you allow Functional.',
    );
    // The iframe's own box: 560 x 315 and Chromium's default 2px border.
    expect(await youtube.boundingBox()).toMatchObject({ width: 564, height: 319 });
    expect(await youtube.locator('[data-consent-action="load-once"]').count()).toBe(1);
    expect(await youtube.locator('[data-consent-action="always-allow"]').innerText()).toBe('Always allow Marketing');
    expect(await seriousPlaceholderViolations(page)).toEqual([]);
    await screenshot(page, 'embeds-held');
    expect(bed.platform.frames).toEqual([]);
  });

  it('"Load once" loads that embed only, without a consent change', async () => {
    const page = await openEmbeds();
    const held = await page.locator(PH).first().boundingBox();
    await page.locator(PH).first().locator('[data-consent-action="load-once"]').click();
    const served = await framesServed(1);
    expect(served).toEqual(['www.youtube.com:' + bed.platform.port + '/embed/one']);
    expect(await srcs(page)).toEqual({
      v1: 'https://www.youtube.com:' + bed.platform.port + '/embed/one',
      v2: null,
      m1: null,
    });
    expect(await page.locator(PH).count()).toBe(2);
    expect(await page.locator('#v1').boundingBox()).toEqual(held); // in the placeholder's place
    expect((await consent(page)).marketing).toBe(false);
    expect(bed.platform.receipts).toEqual([]);
  });

  it('"Always allow" (keyboard) records the grant and loads every held embed of the category, also ones added later', async () => {
    const page = await openEmbeds();
    await evaluate(
      page,
      `document.querySelector('main').insertAdjacentHTML('beforeend',
        '<iframe id="v3" title="v3" data-category="marketing" data-src="https://player.vimeo.com:${bed.platform.port}/embed/three"></iframe>')`,
    );
    await eventually(
      () => page.locator(PH + '[data-vendor="Vimeo"]').count(),
      (n) => n === 1,
    );
    await page.locator(PH).first().locator('[data-consent-action="always-allow"]').focus();
    await page.keyboard.press('Enter');
    const receipts = await eventually(
      () => bed.platform.receipts.slice(),
      (r) => r.length === 1,
    );
    expect(receipts[0].body.categories).toEqual({ functional: false, analytics: false, marketing: true });
    expect((await framesServed(3)).sort()).toEqual(
      ['player.vimeo.com', 'www.youtube-nocookie.com', 'www.youtube.com']
        .map((h, i) => h + ':' + bed.platform.port + '/embed/' + ['three', 'two', 'one'][i])
        .sort(),
    );
    expect(await page.locator(PH).count()).toBe(1); // the map (functional) stays held
    expect((await srcs(page)).m1).toBeNull();
    expect((await consent(page)).marketing).toBe(true);
  });

  it('under Global Privacy Control, "Always allow Marketing" says GPC keeps marketing off and loads nothing; "Load once" still loads', async () => {
    const page = await openEmbeds({ gpc: true });
    const youtube = page.locator(PH).first();
    await youtube.locator('[data-consent-action="always-allow"]').click();
    await youtube
      .getByRole('status')
      .getByText(
        'Your browser sends Global Privacy Control, which keeps Marketing off on this site. Load once loads just this content.',
      )
      .waitFor();
    expect((await consent(page)).marketing).toBe(false);
    expect(await srcs(page)).toEqual({ v1: null, v2: null, m1: null });
    expect(bed.platform.frames).toEqual([]);
    expect(await seriousPlaceholderViolations(page)).toEqual([]);
    await youtube.locator('[data-consent-action="load-once"]').click();
    expect(await framesServed(1)).toEqual(['www.youtube.com:' + bed.platform.port + '/embed/one']);
  });

  it('all load after Accept all in the notice, and load at once on the next page', async () => {
    const page = await openEmbeds();
    await page.locator('[data-consent-action="accept"]').click();
    await framesServed(3);
    await eventually(
      () => page.locator(PH).count(),
      (n) => n === 0,
    );
    await page.reload();
    await framesServed(6);
    expect(Object.values(await srcs(page)).every(Boolean)).toBe(true);
    expect(await page.locator(PH).count()).toBe(0);
  });
});
