// The dashboard reads the four stats routes (never the domain list), and each section has its own
// loading, empty and error state, so one failing service leaves the others on screen.
import { DESKTOP, portalTestBed, screenshot, settled } from './support/browser';

const bed = portalTestBed();
const STATS = ['getDomainStats', 'getSubscriptionStats', 'getWebhookStats', 'getReceiptStats'];

describe('dashboard', () => {
  it('when it opens, then it shows the stats routes’ figures and charts, and never lists domains', async () => {
    // Tall enough to show every section in one screenshot.
    const page = await bed.page({ viewport: { ...DESKTOP, height: 1700 } });
    await page.goto(bed.api.url('/'));
    const byStatus = page.getByRole('region', { name: 'Domains by status' });
    await byStatus.getByRole('link', { name: /8\s+new/ }).waitFor();
    await page.getByText('36 created, 14 invited, 7 activated in the last 12 weeks.').waitFor();
    await page.getByRole('region', { name: 'Subscriptions by product' }).getByRole('cell', { name: /Basic/ }).waitFor();
    await page.getByRole('region', { name: 'Webhook health' }).getByText('Failed attempts in 24 hours').waitFor();
    await page
      .getByRole('region', { name: 'Consent receipts per day' })
      .getByText(/in the last 30 days\./)
      .waitFor();
    await settled(page);
    // The funnel, the receipts and the portfolio's consent figures.
    expect(await page.locator('.chart canvas').count()).toBe(3);
    await screenshot(page, 'desktop-dashboard-all');
    const called = bed.api.calls.map((c) => c.operationId);
    expect(STATS.every((op) => called.includes(op))).toBe(true);
    expect(called).not.toContain('listDomains');
    expect(bed.api.calls.find((c) => c.operationId === 'getDomainStats')?.path).toBe('/portal/stats/domains');
  });

  it('when one stats route fails, then only its section says so, and "Try again" loads it once it is back', async () => {
    bed.api.failing.set('getWebhookStats', 503);
    const page = await bed.page({ viewport: DESKTOP });
    await page.goto(bed.api.url('/'));
    const health = page.getByRole('region', { name: 'Webhook health' });
    await health.getByRole('alert').filter({ hasText: 'unavailable' }).waitFor();
    await page.getByRole('region', { name: 'Domains by status' }).getByRole('link', { name: /new/ }).waitFor();
    await screenshot(page, 'desktop-dashboard-error');
    bed.api.failing.delete('getWebhookStats');
    await health.getByRole('button', { name: 'Try again' }).click();
    await health.getByText('Failed attempts in 24 hours').waitFor();
  });

  it('when the partner has no domain yet, then the dashboard invites them to create one', async () => {
    bed.api.state.domains = [];
    const page = await bed.page({ viewport: DESKTOP });
    await page.goto(bed.api.url('/'));
    await page.getByText('No domains yet').waitFor();
    await page.getByRole('link', { name: 'Create your first domain' }).waitFor();
  });

  it('while the stats load, then a status announces it', async () => {
    let release = () => {};
    bed.api.held.set('getDomainStats', new Promise<void>((resolve) => (release = resolve)));
    const page = await bed.page({ viewport: DESKTOP });
    await page.goto(bed.api.url('/'));
    await page.getByRole('status').filter({ hasText: 'Loading your domains…' }).waitFor({ state: 'attached' });
    release();
    await page.getByRole('region', { name: 'Domains by status' }).waitFor();
  });
});
