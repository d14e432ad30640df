import { randomUUID } from 'node:crypto';
import type { ScanFindings } from '@platform/contracts';
import { sql } from '@platform/db';
import { waitFor } from '@platform/testing';
import type { ScanEngine } from '../src/scanner/scan-worker';
import { envelope, startDomainsSvc, uniqueHost, type Harness } from './support/harness';

type EngineResult = Awaited<ReturnType<ScanEngine['scan']>>;

/**
 * The scan widget's calls on a real domains-svc (the gateway's token for itself, the partner in
 * the body), with the scan engine replaced at its port: each site answers when the test lets it.
 */
const gates = new Map<string, Promise<void>>();
const engine: ScanEngine = {
  scan: async ({ hostname }) => {
    await gates.get(hostname);
    return hostname.startsWith('down') ? siteDown(hostname) : siteWithAnalytics(hostname);
  },
  close: async () => undefined,
};

const counts = (c: Partial<ScanFindings['counts']>): ScanFindings['counts'] => ({
  necessary: 0,
  functional: 0,
  analytics: 0,
  marketing: 0,
  unclassified: 0,
  ...c,
});

const siteWithAnalytics = (hostname: string): EngineResult => ({
  mode: 'http',
  failed: false,
  pages: [`https://${hostname}/`],
  findings: {
    scripts: [
      {
        url: 'https://www.google-analytics.com/a.js',
        host: 'www.google-analytics.com',
        category: 'analytics',
        vendor: 'Google',
      },
    ],
    cookies: [
      { name: '_ga', domain: hostname, expires_at: null, first_party: true, category: 'analytics', vendor: 'Google' },
    ],
    iframes: [],
    counts: counts({ analytics: 2 }),
  },
  errors: [],
});

const siteDown = (hostname: string): EngineResult => ({
  mode: 'http',
  failed: true,
  pages: [],
  findings: { scripts: [], cookies: [], iframes: [], counts: counts({}) },
  errors: [{ url: `https://${hostname}/`, code: 'SCAN.CONNECT_FAILED', message: 'connection refused' }],
});

/** Holds the site's scan until the returned function is called. */
const hold = (hostname: string) => {
  let release!: () => void;
  gates.set(hostname, new Promise<void>((resolve) => (release = resolve)));
  return release;
};

let h: Harness;
beforeAll(async () => {
  h = await startDomainsSvc({ SCAN_MIN_INTERVAL_MS: '600000' }, { scanEngine: () => engine });
});
afterAll(() => h?.close());

const partnerOf = () => ({
  id: randomUUID(),
  name: 'Scan Hosting',
  required_fields: ['phone_number'],
  default_product: 'ENTERPRISE',
  default_price_list: null,
});
type Partner = ReturnType<typeof partnerOf>;

const start = (partner: Partner, url: string, email: string) =>
  h.call(h.gatewayItself(), 'POST', '/internal/onboarding/scans', { partner, scan: { url, email } });
const read = (partner: Partner, token: string) =>
  h.call(h.gatewayItself(), 'GET', `/internal/onboarding/partners/${partner.id}/scans/${token}`);
const ended = (partner: Partner, token: string) =>
  waitFor(
    async () => {
      const r = await read(partner, token);
      return ['completed', 'failed'].includes(r.body.result.status) && r.body.result;
    },
    { what: 'the widget scan to end' },
  );
const rowsOf = async (partnerId: string) => {
  const { rows } = await sql<{ source: string; action: string; status: string; product_code: string; scans: number }>`
    SELECT d.source, d.action, d.status, d.product_code,
      (SELECT count(*)::int FROM domains.scans s WHERE s.domain_id = d.id) AS scans
    FROM domains.domains d WHERE d.partner_id = ${partnerId}`.execute(h.deps.db);
  return rows;
};

describe('widget scans', () => {
  it("when two visitors scan a site the partner lacks at once, then one lead (WIDGET_SCAN, the partner's product, no required fields) is scanned once, SCANNED, and each gets the report", async () => {
    const partner = partnerOf();
    const host = uniqueHost('lead');
    const release = hold(host);
    const [a, b] = await Promise.all([
      start(partner, host, `a@${host}`),
      start(partner, `https://${host}/`, `b@${host}`),
    ]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.result.token).not.toBe(b.body.result.token);
    release();
    const view = await ended(partner, a.body.result.token);
    expect(view).toEqual({
      hostname: host,
      status: 'completed',
      summary: {
        pages: 1,
        categories: expect.arrayContaining([{ name: 'analytics', label: 'Analytics', count: 2 }]),
        cookies: 1,
        trackers: 1,
        third_parties: ['Google'],
      },
    });
    expect((await read(partner, b.body.result.token)).body.result).toEqual(view);
    expect(await rowsOf(partner.id)).toEqual([
      { source: 'WIDGET_SCAN', action: 'SCAN', status: 'SCANNED', product_code: 'ENTERPRISE', scans: 1 },
    ]);
    for (const to of [`a@${host}`, `b@${host}`]) {
      const mail = await h.smtp.waitForMessage((m) => m.to.includes(to));
      expect(mail.subject).toBe(`Scan report for ${host}`);
    }
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM domains.widget_scans WHERE partner_id = ${partner.id} AND reported_at IS NOT NULL`.execute(
      h.deps.db,
    );
    expect(rows[0].n).toBe(2);
  });

  it('when the site cannot be read, then the widget scan is failed, with no summary and no e-mail', async () => {
    const partner = partnerOf();
    const host = uniqueHost('down');
    const started = await start(partner, host, `v@${host}`);
    expect(await ended(partner, started.body.result.token)).toEqual({
      hostname: host,
      status: 'failed',
      summary: null,
    });
    const { rows } = await sql<{ reported_at: Date | null }>`
      SELECT reported_at FROM domains.widget_scans WHERE partner_id = ${partner.id}`.execute(h.deps.db);
    expect(rows).toEqual([{ reported_at: null }]);
  });

  it("when a token is made up or another partner's, then 404", async () => {
    const partner = partnerOf();
    const host = uniqueHost('mine');
    const started = await start(partner, host, `v@${host}`);
    const other = await read(partnerOf(), started.body.result.token);
    expect([other.status, other.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
    expect((await read(partner, 'x'.repeat(43))).status).toBe(404);
  });
});
