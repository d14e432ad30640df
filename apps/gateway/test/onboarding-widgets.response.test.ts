import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATEWAY_ITSELF_PARTNER_ID, InternalTokenVerifier } from '@platform/auth';
import { ROUTES } from '@platform/contracts';
import { sql } from '@platform/db';
import { closeServer, envelope, json, startGateway, startSuite, type Gateway, type Suite } from './support/harness';

const PANEL = 'https://panel.example.com';

/**
 * A domains-svc stand-in for the widgets' /internal/onboarding calls: only the gateway's token for
 * itself, and it keeps what each call named (the partner and its onboarding settings).
 */
async function startOnboardingStub(publicKey: string) {
  const verifier = new InternalTokenVerifier(publicKey, 'domains');
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const caller = verifier.verify(String(req.headers.authorization).slice(7));
      if (caller?.partnerId !== GATEWAY_ITSELF_PARTNER_ID) return res.writeHead(401).end();
      const body = raw ? (JSON.parse(raw) as Record<string, Record<string, string>>) : {};
      calls.push({ path: req.url ?? '', body });
      const result = req.url?.endsWith('/registrations')
        ? { email: body.registration.account_email, expires_at: new Date().toISOString() }
        : { token: 't'.repeat(43), hostname: body.scan.url, status: 'queued' };
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => closeServer(server) };
}

// The platform's route table, a stand-in domains-svc, small onboarding limits and the client
// address from X-Forwarded-For (loopback is a trusted proxy): the limits are the gateway's alone.
describe('the onboarding widgets at the gateway', () => {
  let suite: Suite;
  let gateway: Gateway;
  let stub: Awaited<ReturnType<typeof startOnboardingStub>>;

  /** A partner with both widgets on for PANEL, its default product set. */
  const partner = async () => {
    const id = await suite.partner();
    const on = { enabled: true, allowed_origins: [PANEL], primary_color: '#0e7c3a' };
    await sql`UPDATE gateway.partners SET default_product = 'PRO',
      onboarding_widgets = ${JSON.stringify({ registration: on, scan: on })}::jsonb WHERE id = ${id}`.execute(
      gateway.deps.db,
    );
    return id;
  };
  const post = (partnerId: string, what: string, body: unknown, address: string, origin = PANEL) =>
    fetch(`${gateway.url}/widget/v1/onboarding/${partnerId}/${what}`, {
      method: 'POST',
      headers: { origin, 'x-forwarded-for': address, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const scan = (partnerId: string, host: string, address: string) =>
    post(partnerId, 'scans', { url: host, email: 'visitor@example.org' }, address);

  beforeAll(async () => {
    suite = await startSuite();
    stub = await startOnboardingStub(suite.upstream.publicKey);
    gateway = await startGateway(
      {
        ...suite.env,
        DOMAINS_URL: stub.url,
        TRUSTED_PROXIES: 'loopback',
        ONBOARDING_REGISTRATIONS_PER_ADDRESS: '2',
        ONBOARDING_SCANS_PER_ADDRESS: '2',
        ONBOARDING_SCANS_PER_HOSTNAME: '2',
        ONBOARDING_SCANS_PER_PARTNER: '4',
      },
      ROUTES,
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
    await suite?.close();
  });

  it("when one address scans a third time in the minute, then 429 with Retry-After and CORS; another address goes on; the partner's settings reach domains-svc", async () => {
    const id = await partner();
    for (const host of ['a1.example.com', 'a2.example.com'])
      expect((await scan(id, host, '203.0.113.10')).status).toBe(202);
    const third = await scan(id, 'a3.example.com', '203.0.113.10');
    expect([third.status, await json(third)]).toEqual([429, envelope('RATE.LIMITED', 429)]);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.headers.get('access-control-allow-origin')).toBe(PANEL);
    expect((await scan(id, 'a3.example.com', '203.0.113.11')).status).toBe(202);
    expect(stub.calls.at(-1)).toEqual({
      path: '/internal/onboarding/scans',
      body: {
        partner: {
          id,
          name: expect.any(String),
          required_fields: [],
          default_product: 'PRO',
          default_price_list: null,
        },
        scan: { url: 'a3.example.com', email: 'visitor@example.org' },
      },
    });
  });

  it('when a site was scanned twice in the minute, then a third scan of it is 429 whoever asks, and the refusal spends nothing of the asker', async () => {
    const [one, two] = [await partner(), await partner()];
    expect((await scan(one, 'https://busy.example.com/x', '203.0.113.20')).status).toBe(202);
    expect((await scan(two, 'BUSY.example.com', '203.0.113.21')).status).toBe(202);
    const third = await scan(one, 'busy.example.com', '203.0.113.22');
    expect([third.status, await json(third)]).toEqual([429, envelope('RATE.LIMITED', 429)]);
    for (const host of ['b1.example.com', 'b2.example.com'])
      expect((await scan(one, host, '203.0.113.22')).status).toBe(202);
  });

  it('when a partner has had its scans of the minute, then its next is 429 while another partner scans on', async () => {
    const [busy, calm] = [await partner(), await partner()];
    for (let i = 0; i < 4; i++) expect((await scan(busy, `p${i}.example.com`, `203.0.113.${30 + i}`)).status).toBe(202);
    expect((await scan(busy, 'p4.example.com', '203.0.113.40')).status).toBe(429);
    expect((await scan(calm, 'p4.example.com', '203.0.113.40')).status).toBe(202);
  });

  it('when one address sends a third registration in the minute, then 429; a foreign page is 403 before any limit is spent', async () => {
    const id = await partner();
    const registration = (n: number) => ({
      domain: `r${n}.example.com`,
      company_name: 'Shop',
      account_first_name: 'Rita',
      account_last_name: 'Register',
      account_email: `r${n}@example.org`,
    });
    const foreign = await post(id, 'registrations', registration(0), '203.0.113.50', 'https://evil.example.net');
    expect([foreign.status, foreign.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    for (const n of [1, 2]) expect((await post(id, 'registrations', registration(n), '203.0.113.50')).status).toBe(202);
    const third = await post(id, 'registrations', registration(3), '203.0.113.50');
    expect([third.status, await json(third)]).toEqual([429, envelope('RATE.LIMITED', 429)]);
  });

  it('when a page asks before a POST, then an allowed origin gets a 204 preflight with CORS headers and a foreign one 403 without', async () => {
    const id = await partner();
    const preflight = (origin: string) =>
      fetch(`${gateway.url}/widget/v1/onboarding/${id}/scans`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const allowed = await preflight(PANEL);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PANEL);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
    const foreign = await preflight('https://panel.example.com:8443');
    expect([foreign.status, foreign.headers.get('access-control-allow-origin')]).toEqual([403, null]);
  });

  it('when the confirmation page is asked for, then it is HTML with its own strict CSP, never framed, without a Referer', async () => {
    const res = await fetch(`${gateway.url}/widget/v1/onboarding/confirm`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await res.text()).toContain('<script src="/widget/v1/onboarding/registration.js" data-mode="confirm">');
  });
});
