// Consent figures in the portal and the owner console: the domain page's card, the dashboard's
// portfolio section and the console's Consent figures screen each show a summary in words, the uPlot
// chart (loaded with the screen) and the figures as a table; the period is picked with the keyboard;
// a domain with nothing counted, a failing route and a slow one show their states; axe-clean at
// 1280 px and 390 px. Screenshots also go to /tmp/shots/figures-*.png.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, portalTestBed, settled } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const SHOTS = '/tmp/shots';

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/figures-${name}.png`, fullPage: true });
};

describe('consent figures', () => {
  it("when a domain's page opens, then its card sums the period in words, draws the chart, and the period and table work with the keyboard", async () => {
    const page = await bed.page({ viewport: { ...DESKTOP, height: 1800 } });
    await page.goto(bed.api.url('/domains/dom_0004'));
    const card = page.getByRole('region', { name: 'Consent figures' });
    await card.getByText('Analytics opt-in rate').waitFor();
    await card.getByText(/notice views, .* accept all, .* reject all, .* custom in the last 30 days\./).waitFor();
    await card.locator('.chart canvas').waitFor();
    // The fake checks the query (domain_id, from, to) with the route's own schema.
    expect(bed.api.calls.find((c) => c.operationId === 'getPropertyStats')?.path).toBe(
      '/portal/instance/property/stats',
    );
    await checkScreen(bed, page, 'desktop-domain-figures');
    await shot(page, 'domain-desktop');

    // The period: focused and changed from the keyboard; the figures follow.
    await card.getByLabel('Period').focus();
    await page.keyboard.press('ArrowDown');
    await card.getByText(/in the last 90 days\./).waitFor();
    // The table: opened from the keyboard, a row per day, newest first.
    await card.getByText('Show the figures per day as a table').focus();
    await page.keyboard.press('Enter');
    const table = card.getByRole('region', { name: /Consent figures of shop4\.example\.com per day/ });
    expect(await table.locator('tbody tr').count()).toBe(90);
    await checkScreen(bed, page, 'desktop-domain-figures-table');
  });

  it('when the dashboard opens, then the portfolio section sums every domain; on a phone it fits the screen', async () => {
    const page = await bed.page({ viewport: { ...PHONE, height: 3200 } });
    await page.goto(bed.api.url('/'));
    const section = page.getByRole('region', { name: 'Consent figures across your domains' });
    await section.getByText('Marketing opt-in rate').waitFor();
    await section.locator('.chart canvas').waitFor();
    await settled(page);
    await checkScreen(bed, page, 'phone-dashboard-figures');
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'portfolio-phone');
    expect(bed.api.calls.some((c) => c.operationId === 'getPortfolioStats')).toBe(true);
  });

  it('when a domain has nothing counted, the route fails, or it is slow, then the card says so (and Try again reloads it)', async () => {
    const page = await bed.page({ viewport: DESKTOP });
    await page.goto(bed.api.url('/domains/dom_0001'));
    const card = page.getByRole('region', { name: 'Consent figures' });
    await card.getByText('Nothing counted in this period').waitFor();
    await checkScreen(bed, page, 'desktop-domain-figures-empty');

    bed.api.failing.set('getPropertyStats', 503);
    let release = () => {};
    const other = await bed.page({ viewport: DESKTOP });
    await other.goto(bed.api.url('/domains/dom_0004'));
    const failed = other.getByRole('region', { name: 'Consent figures' });
    await failed.getByRole('alert').waitFor();
    bed.api.failing.delete('getPropertyStats');
    bed.api.held.set('getPropertyStats', new Promise<void>((resolve) => (release = resolve)));
    await failed.getByRole('button', { name: 'Try again' }).click();
    await failed
      .getByRole('status')
      .filter({ hasText: 'Loading the consent figures of shop4.example.com…' })
      .waitFor({ state: 'attached' });
    release();
    await failed.getByText('Functional opt-in rate').waitFor();
  });

  it("when the owner opens Consent figures, then the console shows the domain's figures and links the period's records as CSV and NDJSON", async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop', viewport: { ...DESKTOP, height: 1400 } });
    await page.goto(bed.api.url('/owner/domains/dom_0004/figures'));
    await page.getByRole('heading', { name: 'Consent figures' }).waitFor();
    await page.getByText('GPC opt-outs').first().waitFor();
    await page.locator('.chart canvas').waitFor();
    const csv = await page.getByRole('link', { name: 'Records of this period (CSV)' }).getAttribute('href');
    expect(csv).toMatch(
      /^\/portal\/owner\/domains\/dom_0004\/records\/export\?from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d&format=csv$/,
    );
    await checkScreen(bed, page, 'desktop-owner-figures');
    await shot(page, 'owner-desktop');

    const phone = await bed.page({ userId: null, ownerId: 'own_shop', viewport: PHONE });
    await phone.goto(bed.api.url('/owner/domains/dom_0004/figures'));
    await phone.locator('.chart canvas').waitFor();
    await checkScreen(bed, phone, 'phone-owner-figures');
    await shot(phone, 'owner-phone');
  });
});
