import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOutboundClient, OutboundError, type Resolver } from '../src';

/** Every request goes to 127.0.0.1 only: forbidden addresses are what an injected resolver answers, never contacted. */
describe('outbound client', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/echo') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => res.writeHead(201, { 'content-type': 'text/plain' }).end(`${req.method} ${req.headers.host} ${body}`));
        return;
      }
      if (url.pathname === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/echo' }).end();
      if (url.pathname === '/big') return void res.writeHead(200).end(Buffer.alloc(200_000, 97));
      if (url.pathname === '/never') return; // holds the request open
      res.writeHead(404).end();
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const resolverTo = (...addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const local = () => createOutboundClient({ allowLoopback: true, resolve: resolverTo('127.0.0.1') });
  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err instanceof OutboundError ? err.kind : `not an OutboundError: ${String(err)}`;
    }
    return 'no error';
  };

  it('when a site on an allowed address answers, then its status, body, duration and the address used come back, with the Host of the URL', async () => {
    const client = local();
    const res = await client.request({ method: 'POST', url: `http://receiver.test:${port}/echo`, body: 'hello' });
    expect(res.status).toBe(201);
    expect(res.body.toString()).toBe(`POST receiver.test:${port} hello`);
    expect(res.address).toBe('127.0.0.1');
    expect(res.durationMs).toBeGreaterThan(0);
    await client.close();
  });

  it.each([['10.0.0.1'], ['169.254.169.254'], ['fc00::1'], ['::ffff:127.0.0.1']])(
    'when the host resolves to %s (loopback not allowed), then blocked_address and no connection is made',
    async (address) => {
      const client = createOutboundClient({ resolve: resolverTo(address) });
      const before = connections;
      expect(await failure(client.request({ method: 'GET', url: `http://victim.test:${port}/echo` }))).toBe('blocked_address');
      expect(connections).toBe(before);
      await client.close();
    },
  );

  it('when a resolver answers a public address and a private one (rebinding), then the host is refused', async () => {
    const client = createOutboundClient({ resolve: resolverTo('93.184.216.34', '10.0.0.1') });
    expect(await failure(client.request({ method: 'GET', url: 'http://rebind.test/echo' }))).toBe('blocked_address');
    await client.close();
  });

  it('when the URL is an IP literal of a forbidden range, then blocked_address without resolving', async () => {
    const client = createOutboundClient({ resolve: async () => { throw new Error('must not resolve'); } });
    expect(await failure(client.request({ method: 'GET', url: `http://127.0.0.1:${port}/echo` }))).toBe('blocked_address');
    await client.close();
  });

  it.each([['ftp://x.test/file'], ['file:///etc/passwd'], ['not a url'], ['http://user:pw@x.test/']])('when the URL is %s, then invalid_url', async (url) => {
    const client = local();
    expect(await failure(client.request({ method: 'GET', url }))).toBe('invalid_url');
    await client.close();
  });

  it('when a site redirects, then by default the 3xx is returned as it is', async () => {
    const client = local();
    const res = await client.request({ method: 'GET', url: `http://site.test:${port}/redirect` });
    expect([res.status, res.headers.location]).toEqual([302, '/echo']);
    await client.close();
  });

  it('when redirects are followed, then each hop is checked again: a hop to a private address is refused', async () => {
    const resolve: Resolver = async (host) => [{ address: host === 'inside.test' ? '10.1.2.3' : '127.0.0.1', family: 4 }];
    const client = createOutboundClient({ allowLoopback: true, resolve, maxRedirects: 3 });
    const ok = await client.request({ method: 'GET', url: `http://site.test:${port}/redirect?to=/echo` });
    expect(ok.status).toBe(201);
    const to = encodeURIComponent(`http://inside.test:${port}/echo`);
    expect(await failure(client.request({ method: 'GET', url: `http://site.test:${port}/redirect?to=${to}` }))).toBe('blocked_address');
    await client.close();
  });

  it('when a site never answers, then the total deadline ends the request as timeout', async () => {
    const client = createOutboundClient({ allowLoopback: true, resolve: resolverTo('127.0.0.1'), totalTimeoutMs: 200 });
    expect(await failure(client.request({ method: 'GET', url: `http://slow.test:${port}/never` }))).toBe('timeout');
    await client.close();
  });

  it('when a response is larger than the cap, then only the cap is read and it is marked truncated', async () => {
    const client = createOutboundClient({ allowLoopback: true, resolve: resolverTo('127.0.0.1'), maxResponseBytes: 1024 });
    const res = await client.request({ method: 'GET', url: `http://big.test:${port}/big` });
    expect([res.body.length, res.truncated]).toEqual([1024, true]);
    await client.close();
  });

  it('when nothing listens on the address, then connect', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const client = local();
    expect(await failure(client.request({ method: 'GET', url: `http://down.test:${deadPort}/` }))).toBe('connect');
    await client.close();
  });

  it('when the name does not resolve, then dns', async () => {
    const client = createOutboundClient({ resolve: async () => { throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }); } });
    expect(await failure(client.request({ method: 'GET', url: 'http://nowhere.test/' }))).toBe('dns');
    await client.close();
  });
});
