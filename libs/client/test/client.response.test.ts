import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformClient, NON_ENVELOPE_CODE, PlatformApiError, type PlatformClientOptions } from '../src';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}
type Answer = (seen: Seen, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const envelope = (res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}) =>
  json(res, status, { error: { code, ns: code.split('.')[0], status, message: `${code} happened` } }, headers);
const okDomain: Answer = (_r, res) => json(res, 200, { result: { id: 'd1' } });

/** A real HTTP server on 127.0.0.1 that answers each request with the next answer given, and records what it saw. */
async function scriptedServer(...answers: Answer[]) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() };
      seen.push(request);
      const answer = answers.shift();
      if (answer) answer(request, res);
      else envelope(res, 500, 'TEST.NO_ANSWER_LEFT');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type TestServer = Awaited<ReturnType<typeof scriptedServer>>;

const createBody = { domain: 'shop.example.com', company_name: 'Shop Ltd', account_email: 'owner@example.com' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createPlatformClient against a real HTTP server', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const start = async (...answers: Answer[]) => (server = await scriptedServer(...answers));
  const clientOf = (s: TestServer, options: Partial<PlatformClientOptions> = {}) =>
    createPlatformClient({ baseUrl: s.url, apiKey: 'pk_test', ...options });
  /** The error a call throws (fails the test when it does not throw). */
  const failure = async (call: Promise<unknown>): Promise<PlatformApiError> => {
    const outcome = await call.then(
      () => new Error('the call succeeded'),
      (err: unknown) => err,
    );
    expect(outcome).toBeInstanceOf(PlatformApiError);
    return outcome as PlatformApiError;
  };

  it('when a read answers 429 with Retry-After: 1, then it is sent again after at least a second and its answer returned', async () => {
    const s = await start((_r, res) => envelope(res, 429, 'RATE.LIMITED', { 'Retry-After': '1' }), okDomain);
    const { data } = await clientOf(s).GET('/portal/domains/{domainId}', { params: { path: { domainId: 'd1' } } });
    expect(data).toEqual({ result: { id: 'd1' } });
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /portal/domains/d1', 'GET /portal/domains/d1']);
    expect(s.seen[1].at - s.seen[0].at).toBeGreaterThanOrEqual(1000);
  });

  it('when a write answers 503 with an HTTP-date Retry-After, then it is retried after that moment with the same Idempotency-Key and body', async () => {
    // HTTP dates have whole seconds: two seconds ahead is at least one second from now.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000);
    const s = await start(
      (_r, res) => envelope(res, 503, 'SERVICE.UNAVAILABLE', { 'Retry-After': at.toUTCString() }),
      okDomain,
    );
    const { data } = await clientOf(s).POST('/portal/domains', { body: createBody });
    expect(data).toEqual({ result: { id: 'd1' } });
    expect(s.seen).toHaveLength(2);
    expect(s.seen[1].at).toBeGreaterThanOrEqual(at.getTime());
    const [first, second] = s.seen;
    expect(first.headers['idempotency-key']).toMatch(UUID);
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(JSON.parse(second.body)).toEqual(createBody);
    expect(second.body).toBe(first.body);
  });

  it('when writes are made, then each POST, PUT and DELETE carries an Idempotency-Key of its own, a GET none, and a key given by the caller is kept', async () => {
    const s = await start(okDomain, okDomain, okDomain, okDomain, okDomain, okDomain);
    const client = clientOf(s);
    const domain = { params: { path: { domainId: 'd1' } } };
    await client.POST('/portal/domains', { body: createBody });
    await client.POST('/portal/domains', { body: createBody });
    await client.PUT('/portal/domains/{domainId}', { ...domain, body: { company_name: 'Renamed Ltd' } });
    await client.DELETE('/portal/domains/{domainId}', domain);
    await client.GET('/portal/domains/{domainId}', domain);
    await client.POST('/portal/domains', { body: createBody, headers: { 'Idempotency-Key': 'my-own-key' } });
    const keys = s.seen.map((r) => r.headers['idempotency-key']);
    for (const key of keys.slice(0, 4)) expect(key).toMatch(UUID);
    expect(new Set(keys.slice(0, 4)).size).toBe(4);
    expect(keys.slice(4)).toEqual([undefined, 'my-own-key']);
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'PUT', 'DELETE', 'GET', 'POST']);
  });

  it('when an API key is given, then every request carries it as a Bearer token', async () => {
    const s = await start(okDomain, okDomain);
    const client = clientOf(s, { apiKey: 'pk_live_123' });
    await client.GET('/portal/domains/{domainId}', { params: { path: { domainId: 'd1' } } });
    await client.POST('/portal/domains', { body: createBody });
    expect(s.seen.map((r) => r.headers.authorization)).toEqual(['Bearer pk_live_123', 'Bearer pk_live_123']);
  });

  it('when a session client has a csrfToken, then writes carry the token read at that moment as X-CSRF-Token, reads do not, and no Authorization is sent', async () => {
    const s = await start(okDomain, okDomain, okDomain);
    let token = 'csrf-1';
    const client = clientOf(s, { apiKey: undefined, credentials: 'include', csrfToken: () => token });
    await client.POST('/portal/domains', { body: createBody });
    token = 'csrf-2';
    await client.POST('/portal/domains', { body: createBody });
    await client.GET('/portal/domains/{domainId}', { params: { path: { domainId: 'd1' } } });
    expect(s.seen.map((r) => r.headers['x-csrf-token'])).toEqual(['csrf-1', 'csrf-2', undefined]);
    expect(s.seen.map((r) => r.headers.authorization)).toEqual([undefined, undefined, undefined]);
  });

  it('when 503 keeps coming, then the request is sent retries + 1 times and the last answer is thrown as PlatformApiError', async () => {
    const unavailable: Answer = (_r, res) => envelope(res, 503, 'SERVICE.UNAVAILABLE', { 'Retry-After': '0' });
    const s = await start(unavailable, unavailable, unavailable, okDomain);
    const error = await failure(clientOf(s, { retries: 2 }).POST('/portal/domains', { body: createBody }));
    expect(error).toMatchObject({ status: 503, code: 'SERVICE.UNAVAILABLE' });
    expect(s.seen).toHaveLength(3);
    expect(new Set(s.seen.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('when Retry-After asks for longer than the wait budget, then the 429 is thrown at once without a retry', async () => {
    const s = await start((_r, res) => envelope(res, 429, 'RATE.LIMITED', { 'Retry-After': '120' }), okDomain);
    const started = Date.now();
    const error = await failure(clientOf(s, { retries: { maxWaitMs: 5_000 } }).GET('/portal/domains'));
    expect(error).toMatchObject({ status: 429, code: 'RATE.LIMITED' });
    expect(error.response.headers.get('retry-after')).toBe('120');
    expect(s.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when the caller aborts while the client waits out a Retry-After, then the call ends at once with the abort', async () => {
    const s = await start((_r, res) => envelope(res, 429, 'RATE.LIMITED', { 'Retry-After': '30' }), okDomain);
    const controller = new AbortController();
    // The caller's own fetch: aborts as soon as the 429 is in, so the abort lands in the wait before a retry.
    const fetchThenAbort = async (request: Request) => {
      const response = await fetch(request);
      queueMicrotask(() => controller.abort());
      return response;
    };
    const started = Date.now();
    const outcome = await clientOf(s, { fetch: fetchThenAbort })
      .GET('/portal/domains', { signal: controller.signal })
      .then(
        () => 'answered',
        (err: unknown) => (err as Error).name,
      );
    expect(outcome).toBe('AbortError');
    expect(s.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when retries is 0, then a 429 is thrown after the one request', async () => {
    const s = await start((_r, res) => envelope(res, 429, 'RATE.LIMITED', { 'Retry-After': '0' }), okDomain);
    const error = await failure(clientOf(s, { retries: 0 }).GET('/portal/domains'));
    expect(error.status).toBe(429);
    expect(s.seen).toHaveLength(1);
  });

  it('when an answer is the error envelope, then PlatformApiError carries its status, code, message and data as details; other errors are not retried', async () => {
    const issues = [{ path: ['domain'], message: 'Invalid domain' }];
    const s = await start((_r, res) =>
      json(res, 400, {
        error: { code: 'VALIDATION.INVALID', ns: 'VALIDATION', status: 400, message: 'Invalid body', data: { issues } },
      }),
    );
    const error = await failure(clientOf(s).POST('/portal/domains', { body: createBody }));
    expect(error).toMatchObject({
      name: 'PlatformApiError',
      status: 400,
      code: 'VALIDATION.INVALID',
      message: 'Invalid body',
      details: { issues },
    });
    expect(error).toBeInstanceOf(Error);
    expect(s.seen).toHaveLength(1);
  });

  it('when an error answer is not the envelope (a proxy page), then PlatformApiError has the status, code HTTP.ERROR and the text as message', async () => {
    const s = await start((_r, res) => void res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway'));
    const error = await failure(clientOf(s).GET('/portal/domains'));
    expect(error).toMatchObject({ status: 502, code: NON_ENVELOPE_CODE, message: 'Bad Gateway', details: undefined });
  });

  it('when a list is paginated, then every row of every page comes in order, following meta.next_page with the filters kept', async () => {
    const page = (n: number, rows: string[], next?: number) => (_r: Seen, res: ServerResponse) =>
      json(res, 200, {
        result: rows.map((id) => ({ id })),
        meta: { current_page: n, ...(next ? { next_page: next } : {}), ...(n > 1 ? { prev_page: n - 1 } : {}) },
      });
    const s = await start(page(1, ['a', 'b'], 2), page(2, ['c', 'd'], 3), page(3, ['e']));
    const ids: string[] = [];
    for await (const domain of clientOf(s).paginate('/portal/domains', { query: { status: 'NEW', limit: 2 } }))
      ids.push(domain.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(s.seen.map((r) => r.url)).toEqual([
      '/portal/domains?status=NEW&limit=2&page=1',
      '/portal/domains?status=NEW&limit=2&page=2',
      '/portal/domains?status=NEW&limit=2&page=3',
    ]);
  });

  it('when a page fails, then paginate throws its PlatformApiError after the rows it already gave', async () => {
    const s = await start(
      (_r, res) => json(res, 200, { result: [{ id: 'a' }], meta: { current_page: 1, next_page: 2 } }),
      (_r, res) => envelope(res, 400, 'VALIDATION.INVALID'),
    );
    const ids: string[] = [];
    const iterate = async () => {
      for await (const domain of clientOf(s).paginate('/portal/domains')) ids.push(domain.id);
    };
    const error = await failure(iterate());
    expect(error.code).toBe('VALIDATION.INVALID');
    expect(ids).toEqual(['a']);
  });
});
