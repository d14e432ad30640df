// The widget on a customer's site, end to end: real Chromium loads a page on the domain's hostname
// (mapped to 127.0.0.1) that embeds the snippet taken from the partner API; the gateway serves the
// loader and bundle, domains-svc the settings and activation, consent-svc the signed records.
import canonicalize from 'canonicalize';
import { createPublicKey, randomUUID, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import {
  inPage,
  launchChromium,
  newVisitor,
  saveScreenshot,
  waitFor,
  widgetAxeViolations,
  widgetBooted,
} from '@platform/testing';
import { sharedSystem, type Partner, type System } from './support/system';

const ARTIFACTS = path.resolve(__dirname, '../artifacts');
const SUFFIX = randomUUID().slice(0, 8);
/** Each domain the suite creates gets a hostname under this one, so one resolver rule covers them all. */
const SITE_ROOT = `shop-${SUFFIX}.example.com`;
const OTHER_SITE = `elsewhere-${SUFFIX}.example.net`;

interface Domain {
  id: string;
  hostname: string;
  instance_property_id: string;
  privacy_widget: string;
  status: string;
}
interface ConsentRecord {
  receipt_id: string;
  receipt_status: string;
  subject: string;
  meta: { gpc: boolean; consent_revision: string };
  signature: string;
  [field: string]: unknown;
}

/** The customer's page: the snippet first in <head>, then a marked analytics script. */
const page = (
  snippet: string,
) => `<!doctype html><html lang="en"><head>${snippet}<meta charset="utf-8"><title>Shop</title>
<script type="text/plain" data-category="analytics">window.analyticsRan = (window.analyticsRan || 0) + 1;</script>
</head><body><main><h1>Shop</h1><p>Products.</p></main><script>window.pageWorks = true;</script></body></html>`;

describe('the widget on a customer site (Chromium)', () => {
  let sys: System;
  let partner: Partner;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let site: http.Server;
  const snippets = new Map<string, string>(); // hostname -> snippet

  const sitePort = () => (site.address() as AddressInfo).port;
  const pageUrl = (host: string) => `http://${host}:${sitePort()}/`;
  const createDomain = async (label: string, extra: Record<string, unknown> = {}) => {
    const hostname = `${label}.${SITE_ROOT}`;
    const res = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Shop ${label}`,
      account_email: `owner@${hostname}`,
      has_scripts: true,
      ...extra,
    });
    const d = res.body.result as Domain;
    snippets.set(hostname, d.privacy_widget);
    return d;
  };
  const detail = async (id: string) =>
    (await sys.arrange(partner, 'GET', `/portal/domains/${id}`)).body.result as Domain;
  const records = async (domainId: string) =>
    (await sys.arrange(partner, 'GET', `/portal/instance/company/records?domain_id=${domainId}`)).body
      .result as ConsentRecord[];
  const visit = async (url: string, opts: { gpc?: boolean } = {}) => {
    const context = await newVisitor(browser, opts);
    const p = await context.newPage();
    await p.goto(url);
    return p;
  };
  /** RFC 7515 appendix F by hand (node:crypto, Ed25519): the JWKS key named by kid, over <protected>.<canonical record>. */
  const verify = async (record: ConsentRecord) => {
    const jwks = (await sys.call(undefined, 'GET', '/.well-known/jwks.json')).body as {
      keys: Array<JsonWebKey & { kid: string }>;
    };
    const { signature, ...unsigned } = record;
    const [header, detached, sig] = signature.split('.');
    const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; kid: string };
    const jwk = jwks.keys.find((k) => k.kid === kid);
    const input = Buffer.from(`${header}.${Buffer.from(canonicalize(unsigned)!).toString('base64url')}`);
    const valid =
      !!jwk &&
      verifySignature(null, input, createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(sig, 'base64url'));
    return { alg, detached, valid };
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await sharedSystem();
    partner = await sys.partner();
    await sys.arrange(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}/widget-browser`,
      events: ['property.activated'],
    });
    site = http.createServer((req, res) => {
      const host = String(req.headers.host).split(':')[0];
      const snippet =
        snippets.get(host) ?? snippets.get(String(new URL(req.url ?? '/', 'http://x').searchParams.get('as')));
      res.writeHead(snippet ? 200 : 404, { 'content-type': 'text/html' });
      res.end(snippet ? page(snippet) : 'no such site');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium([SITE_ROOT, OTHER_SITE]);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await sys?.close();
    await receiver?.close();
  });

  it('when the first visitor opens a page, then the domain turns ACTIVE and property.activated reaches the webhook; accept and reject give two verifiable records, the marked script runs only after accept, and a reload does not ask again', async () => {
    const d = await createDomain('main');
    expect(d.privacy_widget).toBe(
      `<script src="${sys.gateway}/widget/v1/${d.instance_property_id}/loader.js"></script>`,
    );
    const first = await visit(pageUrl(d.hostname));
    await first.locator('[data-privacy-widget]').waitFor();
    expect(await inPage(first, 'window.analyticsRan ?? null')).toBeNull();
    await waitFor(async () => (await detail(d.id)).status === 'ACTIVE', { what: 'domain ACTIVE' });
    const hook = await waitFor(
      () => receiver.received.find((r) => r.path === '/widget-browser' && r.body.includes(d.instance_property_id)),
      { timeoutMs: 15_000, what: 'property.activated webhook' },
    );
    expect(JSON.parse(hook.body)).toMatchObject({
      event: 'property.activated',
      params: { property_id: d.instance_property_id, domain_name: d.hostname },
    });

    await first.locator('[data-consent-action="accept"]').click();
    await waitFor(() => inPage<number | undefined>(first, 'window.analyticsRan'), { what: 'analytics after accept' });
    const second = await visit(pageUrl(d.hostname));
    await second.locator('[data-consent-action="reject"]').click();
    const stored = await waitFor(
      async () => {
        const list = await records(d.id);
        return list.length === 2 ? list : undefined;
      },
      { what: 'two records' },
    );
    expect(stored.map((r) => r.receipt_status).sort()).toEqual(['ALLOWED', 'DENIED']);
    for (const record of stored) expect(await verify(record)).toEqual({ alg: 'EdDSA', detached: '', valid: true });
    expect(await verify({ ...stored[0], receipt_status: 'PARTIAL' })).toMatchObject({ valid: false }); // the check can fail
    expect(await inPage(second, 'window.analyticsRan ?? null')).toBeNull();

    await first.reload();
    await widgetBooted(first);
    expect(await first.locator('[data-privacy-widget]').count()).toBe(0);
    expect(await inPage(first, 'window.analyticsRan')).toBe(1);
    expect(await records(d.id)).toHaveLength(2);
  });

  it('when the browser sends Global Privacy Control, then an opt-out record is written without a notice', async () => {
    const d = await createDomain('gpc');
    const p = await visit(pageUrl(d.hostname), { gpc: true });
    const [record] = await waitFor(
      async () => {
        const list = await records(d.id);
        return list.length === 1 ? list : undefined;
      },
      { what: 'GPC record' },
    );
    expect(record).toMatchObject({ receipt_status: 'DENIED', meta: { gpc: true } });
    await widgetBooted(p);
    expect(await p.locator('[data-privacy-widget]').count()).toBe(0);
  });

  it.each(['CLASSIC', 'DISCRETE', 'FOOTER', 'TOP'])(
    'when the notice type is %s, then that notice shows, with no serious axe-core violation in it or its settings view',
    async (type) => {
      const d = await createDomain(type.toLowerCase(), { default_notice_type: type });
      const p = await visit(pageUrl(d.hostname));
      const notice = p.locator('[data-privacy-widget]');
      await notice.waitFor();
      expect(await notice.getAttribute('data-notice-type')).toBe(type);
      await saveScreenshot(p, ARTIFACTS, `system-notice-${type.toLowerCase()}`);
      expect(await widgetAxeViolations(p)).toEqual([]);
      await p.locator('[data-consent-action="settings"]').click();
      expect(await widgetAxeViolations(p)).toEqual([]);
    },
  );

  it("when the domain's flags allow some tabs, then the privacy center shows those, without serious axe-core violations", async () => {
    const d = await createDomain('flags', {
      has_dsar: true,
      has_docs: false,
      has_accessibility: true,
      display_company: false,
      display_dpo: true,
    });
    const p = await visit(pageUrl(d.hostname));
    await widgetBooted(p);
    await p.evaluate("PrivacyWidget.open('dsar')");
    const tabs = await p
      .locator('[data-privacy-view]')
      .evaluateAll((ts) => ts.map((t) => t.getAttribute('data-privacy-view')));
    expect(tabs).toEqual(['consent', 'dsar', 'accessibility', 'dpo']);
    expect(await p.locator('[data-privacy-view][aria-selected="true"]').getAttribute('data-privacy-view')).toBe('dsar');
    expect(await widgetAxeViolations(p)).toEqual([]);
  });

  it('when the snippet is pasted on another hostname, then the domain is not activated and no record is written', async () => {
    const d = await createDomain('stolen');
    const p = await (await newVisitor(browser, { gpc: true })).newPage();
    const [asked] = await Promise.all([
      p.waitForRequest((r) => new URL(r.url()).pathname.endsWith('/settings')),
      p.goto(`${pageUrl(OTHER_SITE)}?as=${d.hostname}`),
    ]);
    const answer = await asked.response();
    // The 403 carries no CORS header, so Chromium may report the request as failed instead.
    expect(answer ? String(answer.status()) : asked.failure()?.errorText).toMatch(/^403$|^net::ERR_FAILED$/);
    expect(await inPage(p, 'window.pageWorks')).toBe(true);
    expect(await p.locator('[data-privacy-widget]').count()).toBe(0);
    expect((await detail(d.id)).status).toBe('NEW');
    expect(await records(d.id)).toEqual([]);
  });
});
