// The notice each visitor's law calls for, end to end: real Chromium on a customer's page (its name
// mapped to 127.0.0.1), the visitor's address set per test in X-Forwarded-For (the tests are the
// gateway's trusted proxy on loopback), domains-svc deciding the regime by GeoIP, consent-svc
// recording it on the receipt. Screenshots go to /tmp/shots/regime-*.png.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WIDGET_TEXTS } from '@platform/contracts/widget-texts-all';
import { SAMPLE_ADDRESSES } from '@platform/geo';
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

const SHOTS = '/tmp/shots';
const SITE_ROOT = `regime-${randomUUID().slice(0, 8)}.example.com`;

interface Domain {
  id: string;
  hostname: string;
  instance_property_id: string;
  privacy_widget: string;
}
interface ConsentRecord {
  receipt_status: string;
  jurisdiction: string | null;
  meta: { gpc: boolean; regime?: string; language?: string };
  subject_data: { categories: Record<string, boolean> };
}

/** The customer's page: the snippet first, then a marked analytics and a marked marketing script. */
const page = (
  snippet: string,
) => `<!doctype html><html lang="en"><head>${snippet}<meta charset="utf-8"><title>Shop</title>
<script type="text/plain" data-category="analytics">window.analyticsRan = (window.analyticsRan || 0) + 1;</script>
<script type="text/plain" data-category="marketing">window.marketingRan = (window.marketingRan || 0) + 1;</script>
</head><body><main><h1>Shop</h1><p>Products.</p></main></body></html>`;

describe("the visitor's regime on a customer site (Chromium)", () => {
  let sys: System;
  let partner: Partner;
  let browser: Browser;
  let site: http.Server;
  const snippets = new Map<string, string>();

  const createDomain = async (label: string) => {
    const hostname = `${label}.${SITE_ROOT}`;
    const res = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Shop ${label}`,
      account_email: `owner@${hostname}`,
      has_scripts: true,
    });
    const d = res.body.result as Domain;
    snippets.set(hostname, d.privacy_widget);
    return d;
  };
  const pageUrl = (d: Domain) => `http://${d.hostname}:${(site.address() as AddressInfo).port}/`;
  const records = async (d: Domain) =>
    (await sys.arrange(partner, 'GET', `/portal/instance/company/records?domain_id=${d.id}`)).body
      .result as ConsentRecord[];
  const oneRecord = (d: Domain) =>
    waitFor(
      async () => {
        const list = await records(d);
        return list.length === 1 ? list[0] : undefined;
      },
      { what: 'one consent record' },
    );
  /** A visitor at `address`: every call to the platform carries it as the proxy's X-Forwarded-For. */
  const visitorAt = async (address: string, opts: { gpc?: boolean; locale?: string } = {}) => {
    const context = await newVisitor(browser, opts);
    await context.route(`${sys.gateway}/widget/**`, (route) =>
      route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': address } }),
    );
    return context;
  };
  const open = async (context: BrowserContext, d: Domain): Promise<Page> => {
    const p = await context.newPage();
    await p.goto(pageUrl(d));
    await widgetBooted(p);
    return p;
  };
  const notice = (p: Page) => p.locator('[data-privacy-widget]');

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
    site = http.createServer((req, res) => {
      const snippet = snippets.get(String(req.headers.host).split(':')[0]);
      res.writeHead(snippet ? 200 : 404, { 'content-type': 'text/html' });
      res.end(snippet ? page(snippet) : 'no such site');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium([SITE_ROOT]);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await sys?.close();
  });

  it('when a Berlin visitor in German comes, then the opt-in notice shows in German and no marked script runs before the choice', async () => {
    const d = await createDomain('berlin');
    const p = await open(await visitorAt(SAMPLE_ADDRESSES.berlin, { locale: 'de-DE' }), d);
    await notice(p).waitFor();
    expect(await notice(p).getAttribute('data-regime')).toBe('OPT_IN');
    expect([await notice(p).getAttribute('lang'), await notice(p).getAttribute('dir')]).toEqual(['de', 'ltr']);
    expect(await p.locator('[data-consent-action="reject"]').innerText()).toBe(WIDGET_TEXTS.de.rejectAll);
    expect(await p.locator('[data-consent-action="accept"]').count()).toBe(1);
    expect(await inPage(p, '[window.analyticsRan ?? null, window.marketingRan ?? null]')).toEqual([null, null]);
    await saveScreenshot(p, SHOTS, 'regime-opt-in');
    expect(await widgetAxeViolations(p)).toEqual([]);
    await p.locator('[data-consent-action="reject"]').click();
    const record = await oneRecord(d);
    expect(record).toMatchObject({
      jurisdiction: 'GDPR',
      receipt_status: 'DENIED',
      meta: { regime: 'OPT_IN', language: 'de' },
    });
    expect(await inPage(p, 'window.marketingRan ?? null')).toBeNull();
  });

  it('when a Los Angeles visitor comes, then marketing runs under the opt-out notice; Do Not Sell or Share stops it on the next page and is recorded', async () => {
    const d = await createDomain('la');
    const context = await visitorAt(SAMPLE_ADDRESSES.losAngeles);
    const first = await open(context, d);
    await notice(first).waitFor();
    expect(await notice(first).getAttribute('data-regime')).toBe('OPT_OUT');
    await waitFor(() => inPage<number | undefined>(first, 'window.marketingRan'), { what: 'marketing runs' });
    await saveScreenshot(first, SHOTS, 'regime-opt-out');
    expect(await widgetAxeViolations(first)).toEqual([]);
    // The privacy center has the same control as a view of its own.
    await first.evaluate("PrivacyWidget.open('optout')");
    const view = first.locator('[data-privacy-center] [data-consent-action="opt-out"]');
    await view.waitFor();
    await saveScreenshot(first, SHOTS, 'regime-opt-out-center');
    expect(await widgetAxeViolations(first)).toEqual([]);
    await view.click();
    const record = await oneRecord(d);
    expect(record).toMatchObject({ jurisdiction: 'CCPA', meta: { gpc: false, regime: 'OPT_OUT' } });
    expect(record.subject_data.categories).toMatchObject({ analytics: true, marketing: false });

    const next = await open(context, d);
    await waitFor(() => inPage<number | undefined>(next, 'window.analyticsRan'), { what: 'analytics still runs' });
    expect(await inPage(next, 'window.marketingRan ?? null')).toBeNull();
    expect(await notice(next).count()).toBe(0);
    expect(await records(d)).toHaveLength(1);
  });

  it('when a Los Angeles visitor sends Global Privacy Control, then the opt-out is recorded without a click and marketing never runs', async () => {
    const d = await createDomain('gpc');
    const context = await visitorAt(SAMPLE_ADDRESSES.losAngeles, { gpc: true });
    const first = await open(context, d);
    const record = await oneRecord(d);
    expect(record).toMatchObject({ jurisdiction: 'CCPA', meta: { gpc: true, regime: 'OPT_OUT' } });
    expect(record.subject_data.categories).toMatchObject({ analytics: true, marketing: false });
    expect(await notice(first).count()).toBe(0);
    await waitFor(() => inPage<number | undefined>(first, 'window.analyticsRan'), { what: 'analytics runs' });
    const next = await open(context, d);
    await waitFor(() => inPage<number | undefined>(next, 'window.analyticsRan'), {
      what: 'analytics on the next page',
    });
    expect(await inPage(first, 'window.marketingRan ?? null')).toBeNull();
    expect(await inPage(next, 'window.marketingRan ?? null')).toBeNull();
  });

  it('when the property pins a regime, then it overrides the place: a Berlin visitor gets the information notice, and a Los Angeles one the opt-in notice', async () => {
    const d = await createDomain('pinned');
    const pin = (regime: string) =>
      sys.arrange(partner, 'PUT', `/portal/instance/property?domain_id=${d.id}`, { regime });
    await pin('NOTICE_ONLY');
    const p = await open(await visitorAt(SAMPLE_ADDRESSES.berlin), d);
    await notice(p).waitFor();
    expect(await notice(p).getAttribute('data-regime')).toBe('NOTICE_ONLY');
    await waitFor(() => inPage<number | undefined>(p, 'window.marketingRan'), { what: 'marketing runs' });
    await saveScreenshot(p, SHOTS, 'regime-notice-only');
    expect(await widgetAxeViolations(p)).toEqual([]);
    await p.locator('[data-consent-action="ok"]').click();
    expect(await oneRecord(d)).toMatchObject({
      jurisdiction: 'GDPR',
      receipt_status: 'ALLOWED',
      meta: { regime: 'NOTICE_ONLY' },
    });

    await pin('OPT_IN');
    const la = await open(await visitorAt(SAMPLE_ADDRESSES.losAngeles), d);
    await notice(la).waitFor();
    expect(await notice(la).getAttribute('data-regime')).toBe('OPT_IN');
    expect(await inPage(la, 'window.marketingRan ?? null')).toBeNull();
  });
});
