import { createOutboundClient, type OutboundClient, type OutboundOptions, type Resolver } from '../src';
import { error, failure, fenceNetwork, resolverTo, startSite, type LocalSite } from './support';

// Forbidden addresses are only ever answers of an injected resolver or literals in a URL: the
// client must refuse them before connecting. A fence (fenceNetwork) turns any connection to
// something else than 127.0.0.1/::1 into an error, so a broken guard fails these tests without
// sending anything; the local site's connection count shows nothing reached it either.
describe('outbound client: address guard', () => {
  let site: LocalSite;
  let fence: ReturnType<typeof fenceNetwork>;
  const clients: OutboundClient[] = [];
  const client = (options: OutboundOptions) => {
    const made = createOutboundClient(options);
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

  it.each([
    ['10.0.0.1'],
    ['169.254.169.254'],
    ['fc00::1'],
    ['::ffff:127.0.0.1'],
    ['127.0.0.1'],
    ['::1'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['64:ff9b::a9fe:a9fe'],
    ['2002:a00:1::1'],
  ])(
    'when the host resolves to %s and loopback is not allowed, then blocked_address and no connection is attempted',
    async (address) => {
      const before = site.connections;
      const err = await error(
        client({ resolve: resolverTo(address) }).request({
          method: 'POST',
          url: `http://victim.test:${site.port}/echo`,
          body: 'x',
        }),
      );

      expect(err.kind).toBe('blocked_address');
      expect(err.message).toContain(address);
      expect(fence.attempts).toEqual([]);
      expect(site.connections).toBe(before);
    },
  );

  it.each([['10.0.0.1'], ['169.254.169.254'], ['fc00::1']])(
    'when loopback is allowed for development and the host resolves to %s, then it is still blocked_address',
    async (address) => {
      expect(
        await failure(
          client({ allowLoopback: true, resolve: resolverTo(address) }).request({
            method: 'GET',
            url: `http://victim.test:${site.port}/`,
          }),
        ),
      ).toBe('blocked_address');
      expect(fence.attempts).toEqual([]);
    },
  );

  it('when a name answers a public address and a private one together, then the host is refused without connecting to either', async () => {
    const err = await error(
      client({ resolve: resolverTo('93.184.216.34', '10.0.0.1') }).request({
        method: 'GET',
        url: 'http://rebind.test/echo',
      }),
    );
    expect(err.kind).toBe('blocked_address');
    expect(fence.attempts).toEqual([]);
  });

  it('when a name answers an allowed address first and a private one on later lookups (rebinding), then the connection uses the checked answer and the next lookup is refused', async () => {
    const lookups: string[] = [];
    const rebinding: Resolver = async (hostname) => {
      lookups.push(hostname);
      return [{ address: lookups.length === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const rebound = client({ allowLoopback: true, resolve: rebinding });

    const first = await rebound.request({ method: 'GET', url: `http://rebind.test:${site.port}/echo` });
    expect([first.status, first.address]).toEqual([201, '127.0.0.1']);
    expect(lookups).toEqual(['rebind.test']); // one lookup, and the socket went to its answer, not to the name
    expect(fence.attempts).toEqual(['127.0.0.1']);

    const before = site.connections;
    expect(await failure(rebound.request({ method: 'GET', url: `http://rebind.test:${site.port}/echo` }))).toBe(
      'blocked_address',
    );
    expect(fence.attempts).toEqual(['127.0.0.1']);
    expect(site.connections).toBe(before);
  });

  it.each([
    ['http://127.0.0.1:PORT/echo'],
    ['http://[::1]:PORT/echo'],
    ['http://[::ffff:127.0.0.1]:PORT/echo'],
    ['http://0x7f.0.0.1:PORT/echo'],
    ['http://2130706433:PORT/echo'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://[fd00:ec2::254]/latest/meta-data/'],
    ['http://10.0.0.1/'],
    ['http://0.0.0.0:PORT/'],
  ])('when the URL is the IP literal %s, then blocked_address without resolving or connecting', async (url) => {
    const resolve = resolverTo('127.0.0.1');
    expect(
      await failure(client({ resolve }).request({ method: 'GET', url: url.replace('PORT', String(site.port)) })),
    ).toBe('blocked_address');
    expect([resolve.calls, fence.attempts]).toEqual([[], []]);
  });

  describe('redirects', () => {
    const local = (options: OutboundOptions = {}) =>
      client({ allowLoopback: true, resolve: resolverTo('127.0.0.1'), ...options });
    const redirect = (to: string, status = 302) =>
      `http://site.test:${site.port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

    it('when a site redirects and redirects are not asked for, then the 3xx is returned as it is', async () => {
      const res = await local().request({ method: 'GET', url: redirect('/echo') });
      expect([res.status, res.headers.location, res.body.toString()]).toEqual([302, '/echo', 'moved']);
      expect(fence.attempts).toEqual(['127.0.0.1']);
    });

    it('when redirects are asked for, then an allowed hop is followed and the final URL answers', async () => {
      const res = await local({ maxRedirects: 2 }).request({
        method: 'GET',
        url: redirect(`http://other.test:${site.port}/echo`),
      });
      expect([res.status, res.url, res.address]).toEqual([201, `http://other.test:${site.port}/echo`, '127.0.0.1']);
      expect(JSON.parse(res.body.toString()).host).toBe(`other.test:${site.port}`);
    });

    it('when a POST is redirected with 302, then the next hop is a GET without the body; with 307 it stays a POST with its body', async () => {
      const post = { method: 'POST' as const, headers: { 'content-type': 'text/plain' }, body: 'payload' };
      const after302 = JSON.parse(
        (await local({ maxRedirects: 1 }).request({ ...post, url: redirect('/echo', 302) })).body.toString(),
      );
      expect([after302.method, after302.body, after302.headers['content-type']]).toEqual(['GET', '', undefined]);
      const after307 = JSON.parse(
        (await local({ maxRedirects: 1 }).request({ ...post, url: redirect('/echo', 307) })).body.toString(),
      );
      expect([after307.method, after307.body]).toEqual(['POST', 'payload']);
    });

    it('when a redirect goes to another origin, then credentials headers are not sent there, other headers are', async () => {
      const res = await local({ maxRedirects: 1 }).request({
        method: 'GET',
        url: redirect(`http://other.test:${site.port}/echo`),
        headers: { authorization: 'Bearer secret', 'x-signature': 'v1,abc' },
      });
      const { headers } = JSON.parse(res.body.toString());
      expect([headers.authorization, headers['x-signature']]).toEqual([undefined, 'v1,abc']);
    });

    it('when a redirect goes to a name that resolves to a private address, then blocked_address and that hop is never connected', async () => {
      const resolve: Resolver = async (hostname) => [
        { address: hostname === 'inside.test' ? '10.1.2.3' : '127.0.0.1', family: 4 },
      ];
      const err = await error(
        local({ maxRedirects: 3, resolve }).request({
          method: 'GET',
          url: redirect(`http://inside.test:${site.port}/echo`),
        }),
      );
      expect(err.kind).toBe('blocked_address');
      expect(err.message).toContain('inside.test');
      expect(fence.attempts).toEqual(['127.0.0.1']);
    });

    it('when a redirect goes to the cloud metadata address, then blocked_address', async () => {
      expect(
        await failure(
          local({ maxRedirects: 3 }).request({
            method: 'GET',
            url: redirect('http://169.254.169.254/latest/meta-data/'),
          }),
        ),
      ).toBe('blocked_address');
      expect(fence.attempts).toEqual(['127.0.0.1']);
    });

    it.each([['file:///etc/passwd'], ['ftp://site.test/x'], ['gopher://127.0.0.1:6379/_INFO']])(
      'when a redirect goes to %s, then redirect',
      async (to) => {
        expect(await failure(local({ maxRedirects: 3 }).request({ method: 'GET', url: redirect(to) }))).toBe(
          'redirect',
        );
        expect(fence.attempts).toEqual(['127.0.0.1']);
      },
    );

    it('when redirects go on longer than maxRedirects, then redirect', async () => {
      const loop = redirect(redirect(redirect('/echo')));
      expect(await failure(local({ maxRedirects: 2 }).request({ method: 'GET', url: loop }))).toBe('redirect');
      expect((await local({ maxRedirects: 3 }).request({ method: 'GET', url: loop })).status).toBe(201);
    });
  });
});
