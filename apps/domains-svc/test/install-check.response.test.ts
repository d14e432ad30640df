import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { installCheckSchema } from '@platform/contracts';
import { envelope, startDomainsSvc, type Harness, type TestPartner } from './support/harness';

/**
 * GET /portal/domains/{domainId}/install-check against real local sites: every name under
 * site.example.com is mapped to a server on 127.0.0.1 (SCANNER_CONNECT_TO), https to a closed port
 * (so the check falls back to http), names under closed.example.com to a closed port on both.
 */
describe('the install check (domains-svc, real local sites)', () => {
  let h: Harness;
  let partner: TestPartner;
  let site: http.Server;
  const sockets = new Set<Socket>();
  /** The HTML each host answers at /, by host name; a host absent here never answers. */
  const pages = new Map<string, string | { status: number; location?: string }>();

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      const page = pages.get(`${host}${req.url === '/' ? '' : req.url}`);
      if (page === undefined) return; // never answers
      if (typeof page !== 'string')
        return res.writeHead(page.status, page.location ? { location: page.location } : {}).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    site.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    h = await startDomainsSvc({
      SCANNER_CONNECT_TO: `*:443:127.0.0.1:9,*.closed.example.com:80:127.0.0.1:9,*.site.example.com:80:127.0.0.1:${port}`,
      SCANNER_PAGE_TIMEOUT_MS: '1500',
    });
    partner = h.partner();
  });
  afterAll(async () => {
    await h?.close();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => site?.close(resolve));
  });

  /** A domain of the partner on a host of its own under the given parent; its snippet and property. */
  const domainUnder = async (parent: string, who = partner) => {
    const hostname = `shop-${randomUUID().slice(0, 8)}.${parent}`;
    const res = await h.call(who, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Shop ${hostname}`,
      account_email: `owner@${hostname}`,
    });
    expect(res.status).toBe(200);
    const d = res.body.result as { id: string; privacy_widget: string };
    return { id: d.id, hostname, snippet: d.privacy_widget };
  };
  const doc = (head: string, body = '<h1>Shop</h1>') =>
    `<!doctype html><html><head><meta charset="utf-8">${head}<title>Shop</title></head><body>${body}</body></html>`;
  const check = async (domainId: string, who = partner) => {
    const res = await h.call(who, 'GET', `/portal/domains/${domainId}/install-check`);
    return res;
  };
  const verdictOf = async (head: string, body?: string) => {
    const d = await domainUnder('site.example.com');
    pages.set(d.hostname, doc(head.replace('SNIPPET', d.snippet), body?.replace('SNIPPET', d.snippet)));
    const res = await check(d.id);
    expect(res.status).toBe(200);
    return { d, result: installCheckSchema.strict().parse(res.body.result) };
  };

  it('when the snippet is the first script in <head>, then INSTALLED (JSON data and text/plain scripts before it do not run, so do not count)', async () => {
    const { d, result } = await verdictOf(
      '<script type="application/ld+json">{"@type":"Store"}</script><script type="text/plain" data-category="analytics">x()</script>SNIPPET<script src="/app.js"></script>',
    );
    expect(result).toEqual({
      domain_id: d.id,
      url: `http://${d.hostname}/`,
      status: 'INSTALLED',
      snippet_found: true,
      first_in_head: true,
      message: expect.stringMatching(/first script in <head>/),
      checked_at: expect.any(String),
    });
    expect(Date.now() - Date.parse(result.checked_at)).toBeLessThan(60_000);
  });

  it('when scripts come before it in <head>, then NOT_FIRST_IN_HEAD saying how many', async () => {
    const { result } = await verdictOf(
      '<script>window.dataLayer = [];</script><script src="https://www.googletagmanager.com/gtm.js?id=GTM-X"></script>SNIPPET',
    );
    expect(result).toMatchObject({ status: 'NOT_FIRST_IN_HEAD', snippet_found: true, first_in_head: false });
    expect(result.message).toBe(
      'The snippet is in <head>, but 2 other scripts come before it; move it to the top of <head> so it runs first.',
    );
  });

  it('when the snippet is in <body>, then NOT_FIRST_IN_HEAD saying so', async () => {
    const { result } = await verdictOf('', '<main>Shop</main>SNIPPET');
    expect(result).toMatchObject({ status: 'NOT_FIRST_IN_HEAD', snippet_found: true, first_in_head: false });
    expect(result.message).toMatch(/not in <head>/);
  });

  it("when the page has no snippet, or another property's, then NOT_FOUND", async () => {
    const other = `<script src="https://widget.test/widget/v1/${randomUUID()}/loader.js"></script>`;
    const { result } = await verdictOf(`${other}<script src="/app.js"></script>`);
    expect(result).toMatchObject({ status: 'NOT_FOUND', snippet_found: false, first_in_head: false });
    expect(result.message).toMatch(/^The snippet is not on the home page/);
  });

  it('when the home page redirects, then the page it lands on is checked', async () => {
    const d = await domainUnder('site.example.com');
    pages.set(d.hostname, { status: 302, location: '/en/' });
    pages.set(`${d.hostname}/en/`, doc(d.snippet));
    const result = installCheckSchema.parse((await check(d.id)).body.result);
    expect(result).toMatchObject({ status: 'INSTALLED', url: `http://${d.hostname}/en/` });
  });

  it('when the site answers 500, does not answer in time, or cannot be connected to, then UNREACHABLE with why', async () => {
    const failing = await domainUnder('site.example.com');
    pages.set(failing.hostname, { status: 500 });
    const silent = await domainUnder('site.example.com');
    const closed = await domainUnder('closed.example.com');
    const started = Date.now();
    const [five, slow, down] = await Promise.all(
      [failing, silent, closed].map(async (d) => installCheckSchema.parse((await check(d.id)).body.result)),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(five).toMatchObject({ status: 'UNREACHABLE', snippet_found: false, first_in_head: false });
    expect(five.message).toMatch(/answered HTTP 500/);
    expect(slow).toMatchObject({ status: 'UNREACHABLE', url: `http://${silent.hostname}/` });
    expect(slow.message).toMatch(/within 1500 ms/);
    expect(down).toMatchObject({ status: 'UNREACHABLE', url: `http://${closed.hostname}/` });
    expect(down.message).toMatch(/No connection could be made/);
  });

  it("when another partner's domain or no domain is named, then 404", async () => {
    const d = await domainUnder('site.example.com');
    const other = h.partner();
    const foreign = await check(d.id, other);
    expect([foreign.status, foreign.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
    expect((await check('not-a-domain')).status).toBe(404);
  });
});
