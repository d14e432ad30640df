// The owner console's Scan and cookies: the latest report (status, when, counts per category, cookies and
// scripts), Scan again (followed until it completes, then refused as too soon: 429), a scan already
// running (409), a site never scanned, the cookie declaration and its "Copy as HTML", and a VIEWER.
import { DESKTOP, PHONE, portalTestBed } from './support/browser';
import { checkScreen } from './support/screen';

const bed = portalTestBed();
const SCAN = '/owner/domains/dom_0004/scan';

describe('owner console: scan and cookies', () => {
  it('when the owner opens it, then the latest report, its cookies and scripts, and the declaration per category show', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(SCAN));
    const latest = page.getByRole('region', { name: 'Latest scan' });
    await latest.getByText('Completed').waitFor();
    await latest.getByText('1 page could not be read').waitFor();
    const counts = latest.getByLabel('Found per category');
    expect(await counts.locator('dt').allTextContents()).toEqual([
      'Necessary',
      'Functional',
      'Analytics',
      'Marketing',
      'Not classified',
    ]);
    expect(await counts.locator('dd').allTextContents()).toEqual(['2', '2', '3', '4', '1']);
    const cookies = page.getByRole('region', { name: 'Cookies', exact: true });
    expect(await cookies.locator('tbody tr').count()).toBe(8);
    await cookies.getByRole('row', { name: /_fbp Marketing Meta/ }).waitFor();
    const scripts = page.getByRole('region', { name: 'Scripts and frames', exact: true });
    await scripts.getByRole('cell', { name: 'connect.facebook.net', exact: true }).waitFor();
    await scripts.getByRole('cell', { name: 'www.youtube.com (frame)' }).waitFor();
    const declaration = page.getByRole('region', { name: 'Cookie declaration' });
    await declaration.getByRole('heading', { name: 'Analytics' }).waitFor();
    const analytics = declaration.getByRole('region', { name: 'Analytics cookies' });
    await analytics
      .getByRole('row', { name: /^_ga shop4\.example\.com Google/ })
      .first()
      .waitFor();
    await analytics.getByText('2 years').first().waitFor();
    expect(await declaration.getByText('No cookies in this category').count()).toBe(0);
    await checkScreen(bed, page, 'desktop-owner-scan');
    await page.setViewportSize(PHONE);
    await checkScreen(bed, page, 'phone-owner-scan');
    await page.setViewportSize(DESKTOP);
  });

  it('when the owner copies the declaration as HTML, then the clipboard holds it, escaped, with a table per category', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: bed.api.origin });
    await page.goto(bed.api.url(SCAN));
    const declaration = page.getByRole('region', { name: 'Cookie declaration' });
    await declaration.getByRole('button', { name: 'Copy as HTML' }).click();
    await declaration.getByText('Copied').waitFor();
    const html = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(html).toContain('<h2>Cookies on shop4.example.com</h2>');
    expect(html).toContain('<h3>Analytics</h3>');
    expect(html).toContain(
      '<tr><td>_ga</td><td>shop4.example.com</td><td>Google</td><td>First party</td><td>2 years</td></tr>',
    );
    expect(html).toContain('<td>.doubleclick.net</td>');
    expect(html.match(/<table>/g)).toHaveLength(5);
  });

  it('when the owner scans again, then the report is followed until it completes; a scan soon after is refused as too soon (429)', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(SCAN));
    const latest = page.getByRole('region', { name: 'Latest scan' });
    await latest.getByText('Completed').waitFor();
    await latest.getByRole('button', { name: 'Scan again' }).click();
    await latest.getByText('Scanning the site.').waitFor();
    expect(await latest.getByRole('button', { name: 'Scan again' }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${__dirname}/artifacts/desktop-owner-scan-running.png` });
    await latest.getByText('Completed').waitFor({ timeout: 15_000 });
    expect(bed.api.calls.filter((c) => c.operationId === 'startOwnerScan')).toEqual([
      expect.objectContaining({ method: 'post', csrf: [...bed.api.state.ownerSessions.values()][0].csrf }),
    ]);
    await latest.getByRole('button', { name: 'Scan again' }).click();
    await latest
      .getByRole('alert')
      .getByText('This site was scanned a short while ago. You can scan it again in about 60 minutes.')
      .waitFor();
    await checkScreen(bed, page, 'desktop-owner-scan-too-soon');
  });

  it('when a scan is already running (409), then the page says so and follows it', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_shop' });
    await page.goto(bed.api.url(SCAN));
    const latest = page.getByRole('region', { name: 'Latest scan' });
    await latest.getByText('Completed').waitFor();
    // Someone else started one meanwhile (the screen still shows the completed report).
    const scans = bed.api.state.ownerConsole.scans;
    scans.set('dom_0004', { ...scans.get('dom_0004')!, id: 'scan_other', status: 'running', finished_at: null });
    await latest.getByRole('button', { name: 'Scan again' }).click();
    await latest
      .getByRole('alert')
      .getByText('A scan of this site is already running. Its report shows here when it finishes.')
      .waitFor();
    await latest.getByText('Scanning the site.').waitFor();
    await latest.getByText('Completed').waitFor({ timeout: 15_000 });
  });

  it('when the site was never scanned, then the screen says so, offers Scan now, and the declaration is empty', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_new' });
    await page.goto(bed.api.url('/owner/domains/dom_0001/scan'));
    await page.getByText('Never scanned').waitFor();
    await page.getByText('No scan of shop1.example.com has finished yet').waitFor();
    await checkScreen(bed, page, 'desktop-owner-scan-never');
    await page.getByRole('button', { name: 'Scan now' }).click();
    await page.getByText('Scanning the site.').waitFor();
  });

  it('when a VIEWER opens it, then the report shows without Scan again', async () => {
    const page = await bed.page({ userId: null, ownerId: 'own_viewer' });
    await page.goto(bed.api.url(SCAN));
    await page.getByRole('region', { name: 'Latest scan' }).getByText('Completed').waitFor();
    expect(await page.getByRole('button', { name: 'Scan again' }).count()).toBe(0);
    await checkScreen(bed, page, 'desktop-owner-scan-viewer');
  });
});
