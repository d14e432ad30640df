// The site scanner end to end: a platform of its own whose domains-svc scans a customer site the
// test serves on 127.0.0.1 (every name mapped there with SCANNER_CONNECT_TO; https to a closed port,
// so the scanner falls back to http), in both modes (http first, then domains-svc restarted with
// SCANNER_MODE=browser). Reports are read through the gateway; e-mail from the system's SMTP server;
// the widget on the scanned site, in Chromium, lists the cookies the scan found.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium, newVisitor, waitFor, widgetBooted } from '@platform/testing';
import { envelope, startSystem, type OwnSystem, type Partner } from './support/system';

const SUFFIX = randomUUID().slice(0, 8);
/** Every customer site is a name under this one. */
const ROOT = `scan-${SUFFIX}.example.com`;
const THIRD_PARTIES = ['www.google-analytics.com', 'connect.facebook.net', 'www.youtube.com'];

/** The customer's sites, by the first label of the Host: what each page answers. */
function siteAnswer(req: http.IncomingMessage, res: http.ServerResponse, snippets: Map<string, string>) {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  const url = req.url ?? '/';
  const html = (body: string, headers: Record<string, string | string[]> = {}) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers })
      .end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body>${body}</body></html>`);
  if (host === 'www.google-analytics.com')
    return res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.ga = function () {};');
  if (host === 'connect.facebook.net')
    return res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.fbq = function () {};');
  if (host === 'www.youtube.com') return html('<p>video</p>');
  const label = host.split('.')[0];
  if (label.startsWith('loop')) return res.writeHead(302, { location: url === '/' ? '/a' : '/' }).end();
  if (label.startsWith('huge')) return html('x'.repeat(400_000));
  if (label.startsWith('silent')) return; // never answers
  if (label.startsWith('refused'))
    return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  if (url === '/with-widget') {
    // The owner's page once the widget is placed (not linked from the site: scans never load it).
    return html(`${snippets.get(host) ?? ''}<main><h1>Shop</h1></main>`);
  }
  if (url === '/app.js')
    return res
      .writeHead(200, { 'content-type': 'text/javascript' })
      .end('document.cookie = "_ga=GA1.1.123.456; path=/; max-age=63072000";');
  if (url === '/' || /^\/p\d$/.test(url)) {
    return html(
      `<h1>Shop ${url}</h1>
       <script src="http://www.google-analytics.com/analytics.js"></script>
       <script src="http://connect.facebook.net/en_US/fbevents.js"></script>
       <script src="/app.js"></script>
       <iframe src="http://www.youtube.com/embed/xyz" title="video"></iframe>
       <a href="/p1">one</a> <a href="/p2">two</a>`,
      { 'set-cookie': ['session_id=abc; Path=/; HttpOnly'] },
    );
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
}

describe('the site scanner (through the gateway)', () => {
  let sys: OwnSystem;
  let site: http.Server;
  let partner: Partner;
  let other: Partner;
  const snippets = new Map<string, string>();
  const sockets = new Set<import('node:net').Socket>();

  beforeAll(async () => {
    site = http.createServer((req, res) => siteAnswer(req, res, snippets));
    site.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    // https: a closed port (connection refused: the scanner falls back to http); http: the site.
    const connectTo = [
      `*:443:127.0.0.1:9`,
      `*.${ROOT}:80:127.0.0.1:${port}`,
      ...THIRD_PARTIES.map((h) => `${h}:80:127.0.0.1:${port}`),
    ].join(',');
    sys = await startSystem({
      SCANNER_ALLOW_LOOPBACK: 'true',
      SCANNER_CONNECT_TO: connectTo,
      SCANNER_MODE: 'http',
      SCANNER_MAX_PAGES: '3',
      SCANNER_PAGE_TIMEOUT_MS: '2000',
      SCANNER_SCAN_TIMEOUT_MS: '8000',
      SCANNER_MAX_PAGE_BYTES: '200000',
      SCANNER_POLL_MS: '100',
      SCAN_LEASE_MS: '20000',
    });
    partner = await sys.partner();
    other = await sys.partner();
  }, 120_000);

  afterAll(async () => {
    await sys?.close();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => site?.close(resolve));
  });

  const create = async (label: string, extra: Record<string, unknown> = {}) => {
    const hostname = `${label}-${randomUUID().slice(0, 6)}.${ROOT}`;
    const d = (
      await sys.arrange(partner, 'POST', '/portal/domains', {
        domain: hostname,
        company_name: `Shop ${hostname}`,
        account_email: `owner@${hostname}`,
        has_scripts: true,
        ...extra,
      })
    ).body.result;
    snippets.set(hostname, d.privacy_widget);
    return d as { id: string; hostname: string; privacy_widget: string; status: string };
  };
  const report = async (domainId: string, who: Partner = partner) =>
    sys.call(who, 'GET', `/portal/domains/${domainId}/scan`);
  const ended = (domainId: string) =>
    waitFor(
      async () => {
        const r = await report(domainId);
        return r.status === 200 && ['completed', 'failed'].includes(r.body.result.status) && r.body.result;
      },
      { timeoutMs: 30_000, what: 'the scan to end' },
    );
  const statusOf = async (domainId: string) =>
    (await sys.arrange(partner, 'GET', `/portal/domains/${domainId}`)).body.result.status;

  describe.each(['http', 'browser'] as const)('in %s mode', (mode) => {
    beforeAll(async () => {
      // A browser page per redirect hop costs up to ~0.7 s on a loaded 2-core machine: a page time-out
      // that holds five hops of the redirect loop (the error must be the loop's, not the clock's).
      if (mode === 'browser')
        await sys.platform.start('domains-svc', {
          SCANNER_MODE: 'browser',
          SCANNER_PAGE_TIMEOUT_MS: '6000',
          SCANNER_SCAN_TIMEOUT_MS: '20000',
          SCAN_LEASE_MS: '30000',
        });
    }, 60_000);

    it('when a domain is created with SCAN, then the report lists the third-party scripts, the cookies and the iframe, classified; the domain is SCANNED and the owner has the report', async () => {
      const d = await create('shop', { action: 'SCAN' });
      const r = await ended(d.id);
      expect(r).toMatchObject({ status: 'completed', mode, requested_by: 'SCAN', errors: [] });
      expect(r.pages[0]).toBe(`http://${d.hostname}/`);
      expect(r.pages.length).toBeLessThanOrEqual(3);
      const scripts = Object.fromEntries(
        r.findings.scripts.map((s: { host: string; category: string; vendor: string | null }) => [
          s.host,
          [s.category, s.vendor !== null],
        ]),
      );
      expect(scripts['www.google-analytics.com']).toEqual(['analytics', true]);
      expect(scripts['connect.facebook.net']).toEqual(['marketing', true]);
      expect(r.findings.iframes).toEqual([expect.objectContaining({ host: 'www.youtube.com' })]);
      const cookies = r.findings.cookies.map((c: { name: string; first_party: boolean }) => [c.name, c.first_party]);
      expect(cookies).toContainEqual(['session_id', true]);
      // Only a browser runs the site's script that sets _ga (document.cookie).
      if (mode === 'browser')
        expect(r.findings.cookies).toContainEqual(
          expect.objectContaining({ name: '_ga', category: 'analytics', first_party: true }),
        );
      else expect(cookies.map(([name]: [string]) => name)).not.toContain('_ga');
      expect(r.findings.counts.analytics).toBeGreaterThanOrEqual(1);
      expect(await statusOf(d.id)).toBe('SCANNED');
      const mail = await sys.smtp.waitForMessage(
        (m) => m.to.includes(`owner@${d.hostname}`) && m.subject === `Scan report for ${d.hostname}`,
        15_000,
      );
      expect(mail.decoded).toContain('session_id');
    });

    it('when a domain is created with SCAN_INVITE, then after its scan it is INVITED and the owner has the invitation with the snippet', async () => {
      const d = await create('invite', { action: 'SCAN_INVITE' });
      expect(d.status).toBe('NEW');
      expect((await ended(d.id)).status).toBe('completed');
      const mail = await sys.smtp.waitForMessage((m) => m.to.includes(`owner@${d.hostname}`), 15_000);
      expect(mail.subject).toBe(`Activate the privacy widget on ${d.hostname}`);
      expect(mail.decoded).toContain(d.privacy_widget);
      await waitFor(async () => (await statusOf(d.id)) === 'INVITED', { what: 'INVITED' });
    });

    it.each([
      ['loop', 'SCAN.TOO_MANY_REDIRECTS'],
      ['huge', 'SCAN.TOO_LARGE'],
      ['silent', 'SCAN.TIMEOUT'],
      ['refused', 'SCAN.ADDRESS_REFUSED'],
    ])('when the site is %s, then the scan ends failed with %s and the domain stays NEW', async (label, code) => {
      const d = await create(label);
      expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(202);
      const r = await ended(d.id);
      expect(r).toMatchObject({ status: 'failed', mode });
      expect(r.errors).toContainEqual(expect.objectContaining({ code, url: expect.stringContaining(d.hostname) }));
      expect(JSON.stringify(r.errors)).not.toContain('169.254');
      expect(await statusOf(d.id)).toBe('NEW');
    });
  });

  it('when a scan of the domain is running, then POST answers 409; once it ended, 429 with Retry-After', async () => {
    const d = await create('silent-busy');
    expect((await sys.call(partner, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(202);
    await waitFor(async () => (await report(d.id)).body.result.status === 'running', { what: 'running' });
    expect(await sys.call(partner, 'POST', `/portal/domains/${d.id}/scan`)).toMatchObject({
      status: 409,
      body: envelope('DOMAIN.SCAN_IN_PROGRESS', 409),
    });
    await ended(d.id);
    const again = await sys.call(partner, 'POST', `/portal/domains/${d.id}/scan`);
    expect(again).toMatchObject({ status: 429, body: envelope('RATE.LIMITED', 429) });
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it("when another partner asks for a domain's scan, or the input is bad, then 404 and 400 in the error envelope", async () => {
    const d = await create('shop-iso', { action: 'SCAN' });
    await ended(d.id);
    expect(await report(d.id, other)).toMatchObject({ status: 404, body: envelope('RESOURCE.NOT_FOUND', 404) });
    expect(await sys.call(other, 'POST', `/portal/domains/${d.id}/scan`)).toMatchObject({
      status: 404,
      body: envelope('RESOURCE.NOT_FOUND', 404),
    });
    expect(await sys.call(partner, 'GET', '/portal/domains/not-a-domain/scan')).toMatchObject({ status: 404 });
    const malformed = await fetch(`${sys.gateway}/portal/domains/${d.id}/scan`, {
      method: 'POST',
      headers: { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' },
      body: '{"oops',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual(envelope('VALIDATION.MALFORMED_JSON', 400));
  });

  describe('the widget on the scanned site (Chromium)', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium([ROOT]);
    });
    afterAll(() => browser?.close());

    it('when the owner places the widget, then its settings view lists the cookies the scan found, per category', async () => {
      const d = await create('widget', { action: 'SCAN' });
      const r = await ended(d.id);
      const found = r.findings.cookies.map((c: { name: string }) => c.name).sort();
      expect(found.length).toBeGreaterThan(0);
      const context = await newVisitor(browser);
      try {
        const page = await context.newPage();
        await page.goto(`http://${d.hostname}:${(site.address() as AddressInfo).port}/with-widget`);
        await widgetBooted(page);
        await page.locator('[data-consent-action="settings"]').click();
        await page.locator('[data-cc-cookie-list]').first().waitFor();
        const listed = await page
          .locator('[data-cc-cookie]')
          .evaluateAll((items) => items.map((i) => i.getAttribute('data-cc-cookie')));
        expect([...listed].sort()).toEqual(found);
        const analytics = await page
          .locator('[data-cc-cookie-list="analytics"] [data-cc-cookie]')
          .evaluateAll((items) => items.map((i) => i.getAttribute('data-cc-cookie')));
        expect(analytics).toContain('_ga');
      } finally {
        await context.close();
      }
    });
  });
});
