import { connectTarget, createOutboundClient, parseConnectTo, type OutboundClient, type OutboundOptions } from '../src';
import { closedPort, error, fenceNetwork, resolverTo, siteCert, startSite, type LocalSite } from './support';

describe('parseConnectTo (curl --connect-to form)', () => {
  it('when entries are well formed, then each becomes a rule; empty parts mean any host/port or keep the original', () => {
    expect(parseConnectTo(' site.test:443:127.0.0.1:8443, *.cdn.test::[::1]:, ::other.test:80 ,*:80:: ')).toEqual([
      { host: 'site.test', port: 443, toHost: '127.0.0.1', toPort: 8443 },
      { host: '*.cdn.test', port: null, toHost: '::1', toPort: null },
      { host: '*', port: null, toHost: 'other.test', toPort: 80 },
      { host: '*', port: 80, toHost: '', toPort: null },
    ]);
    expect(parseConnectTo('')).toEqual([]);
  });

  it.each([
    ['site.test:443:127.0.0.1', /is not HOST:PORT:ADDRESS:PORT/],
    ['site.test:443:127.0.0.1:8443:1', /is not HOST:PORT:ADDRESS:PORT/],
    ['site.test:https:127.0.0.1:8443', /the port "https" is not a port number/],
    ['site.test:443:127.0.0.1:70000', /the target port "70000" is not a port number/],
    ['site.test:0:127.0.0.1:80', /the port "0" is not a port number/],
    ['bad host:443:127.0.0.1:80', /"bad host" is not a host name/],
    ['**.test:443:127.0.0.1:80', /"\*\*\.test" is not a host name/],
    ['site.test:443:not an address:80', /"not an address" is not an address or host name/],
    ['site.test:443:[::1:80', /is not HOST:PORT:ADDRESS:PORT/],
  ])('when the entry is "%s", then it throws naming the problem', (text, message) => {
    expect(() => parseConnectTo(`ok.test:80:127.0.0.1:81,${text}`)).toThrow(message);
  });

  it('when a host matches several rules, then the first one wins; *.suffix matches subdomains only', () => {
    const rules = parseConnectTo('a.site.test:443:127.0.0.2:1443,*.site.test::127.0.0.3:,*:80:127.0.0.4:8080');
    expect(connectTarget(rules, 'a.site.test', 443)).toEqual({ host: '127.0.0.2', port: 1443 });
    expect(connectTarget(rules, 'A.Site.Test.', 80)).toEqual({ host: '127.0.0.3', port: 80 });
    expect(connectTarget(rules, 'b.site.test', 8443)).toEqual({ host: '127.0.0.3', port: 8443 });
    expect(connectTarget(rules, 'site.test', 80)).toEqual({ host: '127.0.0.4', port: 8080 });
    expect(connectTarget(rules, 'site.test', 443)).toEqual({ host: 'site.test', port: 443 });
  });
});

// A connect-to rule moves the connection; the address policy still judges where it goes.
describe('outbound client: connect-to', () => {
  let site: LocalSite;
  let tlsSite: LocalSite;
  let fence: ReturnType<typeof fenceNetwork>;
  const clients: OutboundClient[] = [];
  const client = (options: OutboundOptions) => {
    const made = createOutboundClient(options);
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    site = await startSite();
    tlsSite = await startSite({ https: true });
  });
  afterAll(async () => {
    await site.close();
    await tlsSite.close();
  });
  beforeEach(() => {
    fence = fenceNetwork();
  });
  afterEach(async () => {
    fence.restore();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('when a rule maps a name and port to a local site, then the request reaches it with the original Host and no lookup of the mapped name', async () => {
    const resolve = resolverTo('10.0.0.1');
    const outbound = client({
      allowLoopback: true,
      resolve,
      connectTo: parseConnectTo(`www.google-analytics.com:80:127.0.0.1:${site.port}`),
    });
    const res = await outbound.request({ method: 'GET', url: 'http://www.google-analytics.com/echo' });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.toString()).host).toBe('www.google-analytics.com');
    expect(res.address).toBe('127.0.0.1');
    expect(resolve.calls).toEqual([]);
  });

  it('when a rule maps an https host, then TLS still sends and verifies the original name (SNI)', async () => {
    const outbound = client({
      allowLoopback: true,
      ca: siteCert,
      connectTo: parseConnectTo(`*.test:443:127.0.0.1:${tlsSite.port}`),
    });
    const res = await outbound.request({ method: 'GET', url: 'https://site.test/echo' });
    expect(res.status).toBe(201);
    expect(tlsSite.servernames).toContain('site.test');
  });

  it('when a rule maps to a forbidden address (literal or by name), or a URL names one that a rule would map, then blocked_address and nothing is contacted', async () => {
    const byLiteral = client({ allowLoopback: true, connectTo: parseConnectTo('site.test::169.254.169.254:') });
    expect((await error(byLiteral.request({ method: 'GET', url: `http://site.test:${site.port}/echo` }))).kind).toBe(
      'blocked_address',
    );
    const byName = client({
      allowLoopback: true,
      resolve: resolverTo('10.0.0.1'),
      connectTo: parseConnectTo('site.test::internal.test:'),
    });
    expect((await error(byName.request({ method: 'GET', url: `http://site.test:${site.port}/echo` }))).kind).toBe(
      'blocked_address',
    );
    const mappedLiteral = client({ allowLoopback: true, connectTo: parseConnectTo(`*::127.0.0.1:${site.port}`) });
    expect(
      (await error(mappedLiteral.request({ method: 'GET', url: 'http://169.254.169.254/latest/meta-data/' }))).kind,
    ).toBe('blocked_address');
    const loopbackOff = client({ connectTo: parseConnectTo(`site.test::127.0.0.1:${site.port}`) });
    expect((await error(loopbackOff.request({ method: 'GET', url: 'http://site.test/echo' }))).kind).toBe(
      'blocked_address',
    );
    expect(fence.attempts).toEqual([]);
  });

  it('when the caller aborts a request, then it rejects with kind aborted, not timeout', async () => {
    const outbound = client({ allowLoopback: true, totalTimeoutMs: 30_000 });
    const controller = new AbortController();
    const pending = error(
      outbound.request({ method: 'GET', url: `http://127.0.0.1:${site.port}/never`, signal: controller.signal }),
    );
    site.events.once('never', () => controller.abort());
    expect((await pending).kind).toBe('aborted');
    const already = error(
      outbound.request({ method: 'GET', url: `http://127.0.0.1:${await closedPort()}/`, signal: AbortSignal.abort() }),
    );
    expect((await already).kind).toBe('aborted');
  });
});
