import { once } from 'node:events';
import { createOutboundClient, type OutboundClient, type OutboundOptions } from '../src';
import {
  closedPort,
  error,
  failure,
  fenceNetwork,
  resolverTo,
  siteCert,
  startSilentServer,
  startSite,
  type LocalSite,
} from './support';

// Every request here goes to a local server on 127.0.0.1 (or ::1), through a fence that refuses
// any other address; names like site.test are made to resolve to 127.0.0.1 by an injected resolver.
describe('outbound client: answers, deadlines and failures', () => {
  let site: LocalSite;
  let fence: ReturnType<typeof fenceNetwork>;
  const clients: OutboundClient[] = [];
  const client = (options: OutboundOptions = {}) => {
    const made = createOutboundClient({ allowLoopback: true, resolve: resolverTo('127.0.0.1'), ...options });
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site.close());
  beforeEach(() => {
    fence = fenceNetwork();
  });
  afterEach(async () => {
    fence.restore();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('when a POST reaches an allowed site, then status, headers, body, duration and the address used come back, with the URL host as Host', async () => {
    const res = await client().request({
      method: 'POST',
      url: `http://site.test:${site.port}/echo?x=1`,
      headers: { 'content-type': 'application/json', 'x-signature': 'v1,abc' },
      body: '{"event":"domain.created"}',
    });

    expect(res.status).toBe(201);
    expect(res.headers['x-site']).toBe('echo');
    const echoed = JSON.parse(res.body.toString());
    expect(echoed).toMatchObject({
      method: 'POST',
      host: `site.test:${site.port}`,
      body: '{"event":"domain.created"}',
    });
    expect(echoed.headers['x-signature']).toBe('v1,abc');
    expect(res).toMatchObject({
      truncated: false,
      address: '127.0.0.1',
      url: `http://site.test:${site.port}/echo?x=1`,
    });
    expect(res.durationMs).toBeGreaterThan(0);
    expect(fence.attempts).toEqual(['127.0.0.1']);
  });

  it('when keepAliveMs is set, then requests to one origin reuse one checked connection: resolved and connected once', async () => {
    const resolve = resolverTo('127.0.0.1');
    const kept = client({ keepAliveMs: 2_000, resolve });
    for (let i = 0; i < 3; i++) {
      const res = await kept.request({ method: 'POST', url: `http://site.test:${site.port}/echo`, body: `{"n":${i}}` });
      expect(res).toMatchObject({ status: 201, address: '127.0.0.1' });
      expect(JSON.parse(res.body.toString()).body).toBe(`{"n":${i}}`);
      // undici hands the connection back to its pool on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(fence.attempts).toEqual(['127.0.0.1']);
    expect(resolve.calls).toHaveLength(1);
  });

  it('when keepAliveMs is set and a body is cut at the cap, then the rest of it never reaches the next request on that origin', async () => {
    const kept = client({ keepAliveMs: 2_000, maxResponseBytes: 10 });
    const cut = await kept.request({ method: 'GET', url: `http://site.test:${site.port}/big` });
    expect(cut).toMatchObject({ status: 200, truncated: true });
    expect(cut.body).toHaveLength(10);
    const next = await kept.request({
      method: 'POST',
      url: `http://site.test:${site.port}/echo`,
      body: '{"after":"cut"}',
    });
    expect(next.status).toBe(201);
    // The start of this answer, not the 'aaa...' left of the cut one.
    expect(next.body.toString()).toBe('{"method":');
  });

  it('when the site answers 404, then the answer is returned, not thrown', async () => {
    const res = await client().request({ method: 'GET', url: `http://site.test:${site.port}/missing` });
    expect(res.status).toBe(404);
  });

  it('when the URL is the IPv6 loopback literal and loopback is allowed, then the site on ::1 answers', async () => {
    const v6 = await startSite({ host: '::1' });
    try {
      const res = await client().request({ method: 'GET', url: `http://[::1]:${v6.port}/echo` });
      expect([res.status, res.address]).toEqual([201, '::1']);
    } finally {
      await v6.close();
    }
  });

  describe('https', () => {
    let secure: LocalSite;
    beforeAll(async () => {
      secure = await startSite({ https: true });
    });
    afterAll(() => secure.close());

    it('when the site is https, then the connection goes to the checked address with the host name as SNI, certificate name and Host', async () => {
      const res = await client({ ca: siteCert }).request({
        method: 'GET',
        url: `https://site.test:${secure.port}/echo`,
      });

      expect(res.status).toBe(201);
      expect(JSON.parse(res.body.toString()).host).toBe(`site.test:${secure.port}`);
      expect(secure.servernames).toContain('site.test');
      expect(res.address).toBe('127.0.0.1');
    });

    it('when the certificate is not trusted, then tls', async () => {
      expect(await failure(client().request({ method: 'GET', url: `https://site.test:${secure.port}/echo` }))).toBe(
        'tls',
      );
    });

    it('when the certificate is for another name, then tls', async () => {
      expect(
        await failure(
          client({ ca: siteCert }).request({ method: 'GET', url: `https://other.test:${secure.port}/echo` }),
        ),
      ).toBe('tls');
    });
  });

  describe('response size', () => {
    it('when the body is larger than maxResponseBytes, then exactly that many bytes come back, marked truncated', async () => {
      const res = await client({ maxResponseBytes: 1024 }).request({
        method: 'GET',
        url: `http://site.test:${site.port}/big?bytes=200000`,
      });
      expect([res.status, res.body.length, res.truncated]).toEqual([200, 1024, true]);
      expect(res.body.toString()).toBe('a'.repeat(1024));
    });

    it('when the body is exactly maxResponseBytes, then it is whole and not truncated', async () => {
      const res = await client({ maxResponseBytes: 1024 }).request({
        method: 'GET',
        url: `http://site.test:${site.port}/big?bytes=1024`,
      });
      expect([res.body.length, res.truncated]).toEqual([1024, false]);
    });

    it('when the body never ends, then reading stops at the cap and the connection is closed', async () => {
      const closed = once(site.events, 'endless-closed');
      const res = await client({ maxResponseBytes: 64 * 1024 }).request({
        method: 'GET',
        url: `http://site.test:${site.port}/endless`,
      });
      expect([res.body.length, res.truncated]).toEqual([64 * 1024, true]);
      await closed; // the server saw the client go away
    });
  });

  describe('deadlines', () => {
    it('when the site never answers, then the total deadline ends the request as timeout', async () => {
      expect(
        await failure(
          client({ totalTimeoutMs: 150 }).request({ method: 'GET', url: `http://site.test:${site.port}/never` }),
        ),
      ).toBe('timeout');
    });

    it('when the body stops half way, then the total deadline still ends the request as timeout', async () => {
      expect(
        await failure(
          client({ totalTimeoutMs: 150 }).request({ method: 'GET', url: `http://site.test:${site.port}/stall` }),
        ),
      ).toBe('timeout');
    });

    it('when the TLS handshake never completes, then the connect deadline ends it as timeout before the total deadline', async () => {
      const silent = await startSilentServer();
      try {
        const err = await error(
          client({ connectTimeoutMs: 100, totalTimeoutMs: 30_000 }).request({
            method: 'GET',
            url: `https://site.test:${silent.port}/`,
          }),
        );
        expect(err.kind).toBe('timeout');
        expect(err.message).toMatch(/connect/i);
      } finally {
        await silent.close();
      }
    });

    it('when name resolution hangs, then the connect deadline ends it as timeout', async () => {
      const hanging = () => new Promise<never>(() => undefined);
      const err = await error(
        client({ resolve: hanging, connectTimeoutMs: 100, totalTimeoutMs: 30_000 }).request({
          method: 'GET',
          url: 'http://slow-dns.test/',
        }),
      );
      expect(err.kind).toBe('timeout');
      expect(err.message).toMatch(/slow-dns\.test .*still resolving/);
      expect(fence.attempts).toEqual([]);
    });
  });

  describe('failures', () => {
    it('when nothing listens on the port, then connect', async () => {
      expect(await failure(client().request({ method: 'GET', url: `http://down.test:${await closedPort()}/` }))).toBe(
        'connect',
      );
    });

    it('when the site closes the connection without answering, then response', async () => {
      expect(await failure(client().request({ method: 'GET', url: `http://site.test:${site.port}/hangup` }))).toBe(
        'response',
      );
    });

    it('when the name does not resolve, then dns', async () => {
      const resolve = async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      };
      expect(await failure(client({ resolve }).request({ method: 'GET', url: 'http://nowhere.test/' }))).toBe('dns');
    });

    it('when the name resolves to no address, then dns', async () => {
      expect(
        await failure(client({ resolve: resolverTo() }).request({ method: 'GET', url: 'http://empty.test/' })),
      ).toBe('dns');
    });

    it.each([
      ['ftp://site.test/file'],
      ['file:///etc/passwd'],
      ['gopher://site.test:70/'],
      ['javascript:alert(1)'],
      ['not a url'],
      ['/relative'],
      ['http://user:pw@site.test/'],
    ])('when the URL is %s, then invalid_url and nothing is resolved or connected', async (url) => {
      const resolve = resolverTo('127.0.0.1');
      expect(await failure(client({ resolve }).request({ method: 'GET', url }))).toBe('invalid_url');
      expect([resolve.calls, fence.attempts]).toEqual([[], []]);
    });

    it('when the client is closed during a request, then the request rejects', async () => {
      const closing = client();
      const pending = closing.request({ method: 'GET', url: `http://site.test:${site.port}/never` });
      await once(site.events, 'never');
      await closing.close();
      expect(await failure(pending)).toMatch(/connect|response/);
      expect(await failure(closing.request({ method: 'GET', url: `http://site.test:${site.port}/echo` }))).toBe(
        'connect',
      );
    });
  });
});
