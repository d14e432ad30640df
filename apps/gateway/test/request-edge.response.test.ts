import { request } from 'node:http';
import { rawHttp } from '@platform/testing';
import { startGateway, startSuite, bearer, envelope, type Gateway, type Suite, json } from './support/harness';

/** Sends a chunked body (no Content-Length) so only the streamed byte count can catch it. */
function postChunked(
  url: string,
  key: string,
  chunks: number,
  chunkSize: number,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/portal/things`,
      { method: 'POST', headers: bearer(key, { 'content-type': 'application/json' }) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    // The gateway may answer and close before every chunk is written.
    req.on('error', (err) =>
      err.message.includes('EPIPE') || err.message.includes('ECONNRESET') ? undefined : reject(err),
    );
    let sent = 0;
    const write = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write('x'.repeat(chunkSize))) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('gateway request rules: routes, methods, bodies, rate limit, upstream failures', () => {
  let suite: Suite;
  let gateway: Gateway;
  let key: string;

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway({ ...suite.env, BODY_LIMIT_BYTES: '1024', UPSTREAM_TIMEOUT_MS: '300' });
    key = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${gateway.url}${path}`, { method, headers: bearer(key, headers), body });

  it('when the /portal path is not in the route table, then 404 ROUTE.NOT_FOUND', async () => {
    const res = await call('GET', '/portal/nothing-here');
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual(envelope('ROUTE.NOT_FOUND', 404));
  });

  it('when a path outside /portal is unknown, then 404 ROUTE.NOT_FOUND without needing a key', async () => {
    const res = await fetch(`${gateway.url}/nope`);
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual(envelope('ROUTE.NOT_FOUND', 404));
  });

  it('when the path exists but not the method, then 405 ROUTE.METHOD_NOT_ALLOWED with an Allow header', async () => {
    const res = await call('PATCH', '/portal/things/abc');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, DELETE');
    const body = await json(res);
    expect(body).toEqual(envelope('ROUTE.METHOD_NOT_ALLOWED', 405));
    expect(body.error.data).toEqual({ allowed: ['GET', 'HEAD', 'DELETE'] });
  });

  it.each([
    [
      'a header section over 16 KB',
      431,
      'REQUEST.HEADERS_TOO_LARGE',
      `GET /portal/things HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ],
    ['a garbage request line', 400, 'REQUEST.MALFORMED', 'GARBAGE\r\n\r\n'],
    [
      'a header with an invalid character',
      400,
      'REQUEST.MALFORMED',
      'GET /portal/things HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n',
    ],
  ])(
    'when a request has %s, then a complete %i %s answer in the envelope closes the connection',
    async (_what, status, code, request) => {
      const res = await rawHttp(Number(new URL(gateway.url).port), request);
      expect(res.status).toBe(status);
      expect(res.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(res.body)),
        connection: 'close',
      });
      expect(JSON.parse(res.body)).toEqual(envelope(code, status));
    },
  );

  it('when HEAD is sent to a GET route, then it is answered like GET without a body', async () => {
    const res = await call('HEAD', '/portal/things/abc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.text()).toBe('');
  });

  it('when a body is not JSON, then 415 REQUEST.UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await call('POST', '/portal/things', { 'content-type': 'text/plain' }, 'name=x');
    expect(res.status).toBe(415);
    expect(await json(res)).toEqual(envelope('REQUEST.UNSUPPORTED_MEDIA_TYPE', 415));
  });

  it('when Content-Length exceeds the body limit, then 413 REQUEST.TOO_LARGE', async () => {
    const res = await call(
      'POST',
      '/portal/things',
      { 'content-type': 'application/json' },
      JSON.stringify({ name: 'x'.repeat(2_000) }),
    );
    expect(res.status).toBe(413);
    expect(await json(res)).toEqual(envelope('REQUEST.TOO_LARGE', 413));
  });

  it('when a chunked body streams past the limit, then 413 REQUEST.TOO_LARGE', async () => {
    const res = await postChunked(gateway.url, key, 64, 256);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(envelope('REQUEST.TOO_LARGE', 413));
  });

  it('when a body within the limit is sent, then it is forwarded', async () => {
    const res = await call(
      'POST',
      '/portal/things',
      { 'content-type': 'application/json' },
      JSON.stringify({ name: 'small' }),
    );
    expect(res.status).toBe(201);
  });

  it('when the owning service is not listening, then 503 SERVICE.UNAVAILABLE without internals', async () => {
    const res = await call('GET', '/portal/products');
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|\.js:\d+/);
  });

  it('when the service misses the deadline, then 503 SERVICE.UNAVAILABLE', async () => {
    const res = await call('GET', '/portal/things/slow');
    expect(res.status).toBe(503);
    expect(await json(res)).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
  });

  it('when the service keeps failing, then the breaker opens and answers 503 at once', async () => {
    for (let i = 0; i < 12; i++) await call('GET', '/portal/products');
    expect(gateway.deps.upstreams.billing.isOpen).toBe(true);
    const res = await call('GET', '/portal/products');
    expect(res.status).toBe(503);
    expect(await json(res)).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
  });
});

describe('gateway per-key rate limit', () => {
  let suite: Suite;
  let gateway: Gateway;

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway({ ...suite.env, RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  it('when a key exceeds its limit, then 429 RATE.LIMITED with Retry-After and RateLimit headers, and other keys, of its partner or another, are unaffected', async () => {
    const partnerId = await suite.partner();
    const busy = await suite.key(partnerId);
    const other = await suite.key(partnerId);
    const otherPartner = await suite.key(await suite.partner());
    const get = (k: string) => fetch(`${gateway.url}/portal/things`, { headers: bearer(k) });

    for (let i = 0; i < 3; i++) {
      const ok = await get(busy.key);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-policy')).toMatch(/q=3; w=60/);
      expect(ok.headers.get('ratelimit')).toMatch(new RegExp(`r=${2 - i}; t=\\d+`));
    }

    const limited = await get(busy.key);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/r=0; t=\d+/);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/q=3; w=60/);
    expect(await json(limited)).toEqual(envelope('RATE.LIMITED', 429));

    expect((await get(other.key)).status).toBe(200);
    expect((await get(otherPartner.key)).status).toBe(200);
  });
});
