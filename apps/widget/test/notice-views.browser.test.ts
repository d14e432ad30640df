// The notice-view beacon for the consent figures: one POST .../notice-views each time the notice
// is shown (a simple request: no preflight), none when a stored choice stands.
import { booted, eventually, widgetTestBed } from './support/browser';

const bed = widgetTestBed();

describe('the notice-view beacon', () => {
  it('is sent once when the notice is shown, from the page origin, and not again once the visitor chose', async () => {
    const page = await bed.open();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.method() + ' ' + new URL(r.url()).pathname));
    await page.locator('[data-privacy-widget]').waitFor();
    await eventually(
      () => bed.platform.noticeViews,
      (v) => v.length === 1,
    );
    expect(bed.platform.noticeViews).toEqual(['http://shop.example.test:' + bed.platform.port]);
    await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/receipts')),
      page.locator('[data-consent-action="accept"]').click(),
    ]);
    await page.reload();
    await booted(page);
    expect(await page.locator('[data-privacy-widget]').count()).toBe(0);
    expect(bed.platform.noticeViews).toHaveLength(1);
    // No CORS preflight for the beacon: it is a simple POST without a body.
    expect(requests.filter((r) => r.startsWith('OPTIONS') && r.endsWith('/notice-views'))).toEqual([]);
  });
});
