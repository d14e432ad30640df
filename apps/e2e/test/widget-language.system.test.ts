// The visitor's language end to end: Chromium set to German (--accept-lang=de) opens a customer's
// page; the gateway serves the loader, the bundle and the German pack, domains-svc the settings in
// German with the partner's override, and consent-svc writes the record in the German texts the
// visitor read (meta.language de).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { WIDGET_TEXTS } from '@platform/contracts/widget-texts-all';
import { launchChromium, newVisitor, waitFor, widgetAxeViolations } from '@platform/testing';
import { sharedSystem, type Partner, type System } from './support/system';

const SITE_ROOT = `lang-${randomUUID().slice(0, 8)}.example.com`;
interface Purpose {
  category: string;
  name: string;
  legal_description: string;
}
interface ConsentRecord {
  meta: { language?: string };
  data_collection: Array<{ purposes: Purpose[] }>;
}

describe("the widget in the visitor's language (Chromium, the whole platform)", () => {
  let sys: System;
  let partner: Partner;
  let browser: Browser;
  let site: http.Server;
  const snippets = new Map<string, string>();

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
    site = http.createServer((req, res) => {
      const snippet = snippets.get(String(req.headers.host).split(':')[0]);
      res.writeHead(snippet ? 200 : 404, { 'content-type': 'text/html' });
      res.end(
        snippet
          ? `<!doctype html><html lang="en"><head>${snippet}<title>Shop</title></head><body><h1>Shop</h1></body></html>`
          : '',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium([SITE_ROOT], ['--lang=de', '--accept-lang=de']);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await sys?.close();
  });

  it('when a German visitor accepts, then the notice was German with the override, and the record states the German texts', async () => {
    const hostname = `www.${SITE_ROOT}`;
    const created = await sys.arrange(partner, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: 'Laden GmbH',
      account_email: `owner@${hostname}`,
      has_scripts: true,
    });
    const d = created.body.result as { id: string; privacy_widget: string };
    snippets.set(hostname, d.privacy_widget);
    const put = await sys.arrange(partner, 'PUT', `/portal/instance/property?domain_id=${d.id}`, {
      text_overrides: { de: { acceptAll: 'Alles klar' } },
    });
    expect(put.status).toBe(200);

    const page = await (await newVisitor(browser)).newPage();
    await page.goto(`http://${hostname}:${(site.address() as AddressInfo).port}/`);
    const notice = page.locator('[data-privacy-widget]');
    await notice.waitFor();
    expect(await notice.getAttribute('lang')).toBe('de');
    expect(await page.locator('#pw-notice-title').innerText()).toBe(WIDGET_TEXTS.de.noticeTitle);
    expect(await page.locator('[data-consent-action="reject"]').innerText()).toBe(WIDGET_TEXTS.de.rejectAll);
    expect(await widgetAxeViolations(page)).toEqual([]);
    await page.locator('[data-consent-action="accept"]', { hasText: 'Alles klar' }).click();

    const [record] = await waitFor(
      async () => {
        const res = await sys.arrange(partner, 'GET', `/portal/instance/company/records?domain_id=${d.id}`);
        const list = res.body.result as ConsentRecord[];
        return list.length === 1 ? list : undefined;
      },
      { what: 'the German record' },
    );
    expect(record.meta.language).toBe('de');
    const marketing = record.data_collection[0].purposes.find((p) => p.category === 'marketing')!;
    expect([marketing.name, marketing.legal_description]).toEqual([
      WIDGET_TEXTS.de.catMarketing,
      WIDGET_TEXTS.de.catMarketingText,
    ]);
  });
});
