// The scan widget, end to end: a platform of its own whose scanner reaches a customer site this test
// serves on 127.0.0.1 (every name of it mapped there with SCANNER_CONNECT_TO; https to a closed port,
// so the scanner falls back to http). A partner page in Chromium embeds the scan widget, a visitor
// scans the site, sees the summary and gets the report by e-mail; the partner sees a SCANNED lead.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, newVisitor, saveScreenshot, waitFor } from '@platform/testing';
import {
  embeddingPage,
  onboardingAxeViolations,
  partnerAdmin,
  partnerSite,
  type PartnerSite,
} from './support/onboarding';
import { envelope, startSystem, type OwnSystem, type Partner } from './support/system';

const ARTIFACTS = path.resolve(__dirname, '../artifacts');
const SUFFIX = randomUUID().slice(0, 8);
const PANEL = `scan-panel-${SUFFIX}.example.com`;
const SITES = `scanned-${SUFFIX}.example.com`;
const ANALYTICS = 'www.google-analytics.com';

/** A customer's shop: an analytics script, a first-party cookie and a second page. */
const shop = (title: string) => `<!doctype html><html lang="en"><head><title>${title}</title>
<script src="http://${ANALYTICS}/analytics.js"></script></head>
<body><h1>${title}</h1><a href="/p1">more</a></body></html>`;

describe('the scan widget on a partner page (Chromium)', () => {
  let sys: OwnSystem;
  let site: PartnerSite;
  let browser: Browser;
  let partner: Partner;
  let panelOrigin: string;
  const scan = (body: Record<string, unknown>, origin = panelOrigin) =>
    sys.call(undefined, 'POST', `/widget/v1/onboarding/${partner.id}/scans`, body, { origin });
  const domainOf = async (hostname: string) =>
    (
      (await sys.arrange(partner, 'GET', `/portal/domains?search=${hostname}&is_active=true`)).body.result as Record<
        string,
        unknown
      >[]
    )[0];

  beforeAll(async () => {
    site = await partnerSite();
    for (const label of ['shop', 'again']) site.page(`${label}.${SITES}`, shop(`Shop ${label}`));
    site.page(ANALYTICS, 'window.ga = function () {};');
    sys = await startSystem({
      SCANNER_ALLOW_LOOPBACK: 'true',
      SCANNER_CONNECT_TO: [
        `*:443:127.0.0.1:9`,
        `*.${SITES}:80:127.0.0.1:${site.port}`,
        `${ANALYTICS}:80:127.0.0.1:${site.port}`,
      ].join(','),
      SCANNER_MODE: 'http',
      SCANNER_MAX_PAGES: '2',
      SCANNER_POLL_MS: '100',
    });
    partner = await sys.partner(`Scan Hosting ${SUFFIX}`);
    panelOrigin = site.origin(PANEL);
    const admin = await partnerAdmin(sys, partner);
    await admin.widgets({ scan: { enabled: true, allowed_origins: [panelOrigin], primary_color: '#7c2d12' } });
    browser = await launchChromium([PANEL]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.close();
    await site?.close();
  });

  it('when a visitor scans a site through the widget, then the summary shows, the report is e-mailed and the partner has the site as a SCANNED lead (WIDGET_SCAN)', async () => {
    const hostname = `shop.${SITES}`;
    const script = `${sys.gateway}/widget/v1/onboarding/scan.js`;
    const page = await (await newVisitor(browser)).newPage();
    await page.goto(site.page(PANEL, embeddingPage(script, { 'data-partner': partner.id }, 'scan')));
    await page.getByRole('heading', { name: 'Scan your website' }).waitFor();
    expect(await page.getByText(`With Scan Hosting ${SUFFIX}`).count()).toBe(1);
    expect(await onboardingAxeViolations(page)).toEqual([]);

    await page.getByLabel('Website', { exact: true }).fill(`https://${hostname}/`);
    await page.getByLabel('E-mail address', { exact: true }).fill(`visitor@${SITES}`);
    await page.getByRole('button', { name: 'Scan website' }).click();
    await page.locator('[data-scan-status="completed"]').waitFor({ timeout: 60_000 });
    await page.getByText(`The scan of ${hostname} is done. We e-mailed the full report to visitor@${SITES}.`).waitFor();
    expect(await page.getByText('Analytics: 1 item').count()).toBe(1);
    expect(await page.getByRole('listitem').filter({ hasText: 'Google' }).count()).toBeGreaterThan(0);
    expect(await onboardingAxeViolations(page)).toEqual([]);
    await saveScreenshot(page, ARTIFACTS, 'onboarding-scan-summary');

    const lead = await domainOf(hostname);
    expect(lead).toMatchObject({ hostname, source: 'WIDGET_SCAN', status: 'SCANNED', email: `visitor@${SITES}` });
    const mail = await sys.smtp.waitForMessage((m) => m.to.includes(`visitor@${SITES}`), 20_000);
    expect(mail.subject).toBe(`Scan report for ${hostname}`);
    expect(mail.decoded).toContain('analytics: 1');
  });

  it("when visitors scan a site the partner has, then it is scanned once, SCANNED, and each gets the report without the owner's details", async () => {
    const hostname = `again.${SITES}`;
    await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: 'Again Ltd',
      account_email: `olga@${SITES}`,
      account_first_name: 'Olga',
    });
    const first = await scan({ url: hostname, email: `first@${SITES}` });
    expect([first.status, first.body.result]).toEqual([202, { token: expect.any(String), hostname, status: 'queued' }]);
    const read = (token: string) =>
      sys.call(undefined, 'GET', `/widget/v1/onboarding/${partner.id}/scans/${token}`, undefined, {
        origin: panelOrigin,
      });
    const done = await waitFor(
      async () => {
        const r = await read(first.body.result.token);
        return r.body.result.status === 'completed' && r.body.result;
      },
      { timeoutMs: 30_000, what: 'the scan to complete' },
    );
    expect(done.summary).toMatchObject({
      pages: 2,
      cookies: 0,
      trackers: 1,
      third_parties: [expect.stringMatching(/Google/)],
    });
    expect(done.summary.categories).toContainEqual({ name: 'analytics', label: 'Analytics', count: 1 });
    const firstMail = await sys.smtp.waitForMessage((m) => m.to.includes(`first@${SITES}`), 20_000);
    expect(firstMail.subject).toBe(`Scan report for ${hostname}`);
    expect(firstMail.decoded).not.toContain('Olga');

    // A second visitor joins the scan that just ended: no new scan, the report at once.
    const second = await scan({ url: `https://${hostname}`, email: `second@${SITES}` });
    expect([second.status, second.body.result.status]).toEqual([202, 'completed']);
    await sys.smtp.waitForMessage(
      (m) => m.to.includes(`second@${SITES}`) && m.subject === `Scan report for ${hostname}`,
    );
    const scans = await (
      await sys.db()
    ).query(
      'SELECT count(*)::int AS n FROM domains.scans s JOIN domains.domains d ON d.id = s.domain_id WHERE d.hostname = $1',
      [hostname],
    );
    expect(scans.rows[0].n).toBe(1);
    expect(await domainOf(hostname)).toMatchObject({ source: 'API', status: 'SCANNED', email: `olga@${SITES}` });
  });

  it('when the page is not allowed, the token is made up or the body is bad, then 403 (no CORS), 404 and 400 in the envelope', async () => {
    const foreign = await scan({ url: `x.${SITES}`, email: `v@${SITES}` }, site.origin(`evil-${SUFFIX}.example.net`));
    expect([foreign.status, foreign.body]).toEqual([403, envelope('WIDGET.ORIGIN_NOT_ALLOWED', 403)]);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const unknown = await sys.call(
      undefined,
      'GET',
      `/widget/v1/onboarding/${partner.id}/scans/${'A'.repeat(43)}`,
      undefined,
      { origin: panelOrigin },
    );
    expect([unknown.status, unknown.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
    const bad = await scan({ url: '127.0.0.1', email: 'nope' });
    expect([bad.status, bad.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    expect((bad.body.error.data.issues as { path: string }[]).map((i) => i.path).sort()).toEqual([
      'body.email',
      'body.url',
    ]);
  });
});
