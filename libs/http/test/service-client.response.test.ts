import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@platform/testing';
import { AppError, ServiceClient } from '../src';

type Route = (req: IncomingMessage, res: ServerResponse) => void;

const envelope = (res: ServerResponse, status: number, code: string) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: { code, ns: code.split('.')[0], status, message: code } }));
};

/** A stand-in service: each path answers as its route says (routes may use `hang`: never answer until close). */
async function fakeService(routesOf: (hang: Route) => Record<string, Route>) {
  const held: ServerResponse[] = [];
  const routes = routesOf((_req, res) => void held.push(res));
  const server: Server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route) return route(req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const ok: Route = (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{}}');

/** Each call's outcome: the status, or the error code with the message's first words. */
const attempt = async (client: ServiceClient, path: string, partnerId: string) => {
  try {
    return (await client.request({ method: 'GET', path, partnerId })).status;
  } catch (err) {
    return err instanceof AppError ? `${err.code}: ${err.message}` : String(err);
  }
};

describe('ServiceClient breakers: the shared one opens only when the service itself fails', () => {
  const clients: ServiceClient[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(closers.splice(0).map((c) => c()));
  });
  const clientFor = (url: string, timeoutMs = 2_000) => {
    const client = new ServiceClient({ name: 'domains', baseUrl: url, timeoutMs });
    clients.push(client);
    return client;
  };

  it('when the service answers one partner 503 in the envelope (its dependency timed out), then only that partner is refused; others go through', async () => {
    const service = await fakeService(() => ({
      '/dependent': (_req, res) => envelope(res, 503, 'SERVICE.UNAVAILABLE'),
      '/ok': ok,
      '/health/live': ok,
    }));
    closers.push(service.close);
    const client = clientFor(service.url);
    for (let i = 0; i < 12; i++) await attempt(client, '/dependent', 'noisy');
    expect(client.isOpen).toBe(false);
    expect(client.isOpenFor('noisy')).toBe(true);
    expect(await attempt(client, '/ok', 'quiet')).toBe(200);
    expect(await attempt(client, '/ok', 'noisy')).toMatch(
      /^SERVICE.UNAVAILABLE: Your recent calls to the domains service/,
    );
  });

  it("when one partner's calls time out while the service answers its liveness check, then only that partner is refused", async () => {
    let livenessChecks = 0;
    const service = await fakeService((hang) => ({
      '/locked': hang,
      '/ok': ok,
      '/health/live': (req, res) => {
        livenessChecks++;
        ok(req, res);
      },
    }));
    closers.push(service.close);
    const client = clientFor(service.url, 150);
    const timedOut = await Promise.all(Array.from({ length: 12 }, () => attempt(client, '/locked', 'noisy')));
    expect(new Set(timedOut)).toEqual(
      new Set(['SERVICE.UNAVAILABLE: The domains service is unavailable; retry later.']),
    );
    await waitFor(() => livenessChecks > 0, { what: 'a liveness check' });
    expect(await attempt(client, '/ok', 'quiet')).toBe(200);
    expect(client.isOpen).toBe(false);
    expect(client.isOpenFor('noisy')).toBe(true);
  });

  it('when the service answers nothing, not even its liveness check, then the shared breaker opens and every partner is refused at once', async () => {
    const stuck = await fakeService((hang) => ({ '/any': hang, '/health/live': hang }));
    closers.push(stuck.close);
    const client = clientFor(stuck.url, 150);
    await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(client, '/any', `partner-${i}`)));
    await waitFor(() => client.isOpen, { what: 'the shared breaker to open' });
    expect(await attempt(client, '/any', 'someone-new')).toBe(
      'SERVICE.UNAVAILABLE: The domains service is unavailable; retry later.',
    );
  });

  it('when connections are refused, then the shared breaker opens', async () => {
    const gone = await fakeService(() => ({}));
    await gone.close();
    const client = clientFor(gone.url);
    for (let i = 0; i < 10; i++) await attempt(client, '/any', `partner-${i}`);
    expect(client.isOpen).toBe(true);
  });

  it("when something that is not our service answers errors outside the envelope (a proxy's 502 page), then the shared breaker opens", async () => {
    const proxy = await fakeService(() => ({
      '/any': (_req, res) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>'),
    }));
    closers.push(proxy.close);
    const client = clientFor(proxy.url);
    for (let i = 0; i < 10; i++) await attempt(client, '/any', `partner-${i}`);
    expect(client.isOpen).toBe(true);
  });

  it('when the service answers 500 in the envelope (a bug in one request), then no breaker opens', async () => {
    const buggy = await fakeService(() => ({
      '/bug': (_req, res) => envelope(res, 500, 'SERVER.INTERNAL'),
      '/ok': ok,
    }));
    closers.push(buggy.close);
    const client = clientFor(buggy.url);
    for (let i = 0; i < 12; i++) expect(await attempt(client, '/bug', 'noisy')).toBe(500);
    expect(client.isOpen).toBe(false);
    expect(client.isOpenFor('noisy')).toBe(false);
  });
});
