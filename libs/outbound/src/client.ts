import { Client, Pool, type Dispatcher } from 'undici';
import type { AddressPolicy } from './address';
import { pinnedConnector, systemResolver, type PinnedConnectOptions, type Resolver } from './connect';
import { classify, OutboundError } from './errors';

export interface OutboundOptions extends AddressPolicy {
  /** Name resolution; default `dns.promises.lookup(name, { all: true })`. Tests inject one. */
  resolve?: Resolver;
  /** Deadline for resolving, connecting and the TLS handshake of each hop. Default 5000. */
  connectTimeoutMs?: number;
  /** Deadline for the whole request, redirects and body included. Default 15000. */
  totalTimeoutMs?: number;
  /** At most this many bytes of the response body are read; the rest is dropped. Default 64 KiB. */
  maxResponseBytes?: number;
  /** Redirects followed, each hop checked again (scheme and address). Default 0: a 3xx is returned as it is. */
  maxRedirects?: number;
  /** Trusted CA certificates instead of Node's bundled roots (private CAs, tests). */
  ca?: PinnedConnectOptions['ca'];
  /**
   * Keep connections to an origin open this long between requests and reuse them (webhook
   * workers sending many requests to few origins). A kept connection stays on the address that
   * was checked when it opened; each new connection resolves and checks again. Default 0: a
   * connection per request.
   */
  keepAliveMs?: number;
}

export interface OutboundRequest {
  method: Dispatcher.HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most `maxResponseBytes` bytes of the body. */
  body: Buffer;
  /** The body was longer than `maxResponseBytes`: the rest was not read, the connection was closed. */
  truncated: boolean;
  durationMs: number;
  /** The address the (last) connection went to: the one that was checked (with keepAliveMs, the origin's latest). */
  address: string;
  /** The URL that answered (differs from the request's after redirects). */
  url: string;
}

export interface OutboundClient {
  /** Resolves with any HTTP answer (including 4xx, 5xx, and 3xx when redirects are not followed); rejects with an OutboundError. */
  request(req: OutboundRequest): Promise<OutboundResponse>;
  /** Ends the requests in flight (they reject) and refuses new ones. */
  close(): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Not sent to another origin after a redirect (credentials, as fetch does; and a Host set by the caller). */
const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization', 'host']);
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding']);

/** The request's URL (`base` absent) or a redirect's Location (relative to `base`), http(s) only. */
function parseUrl(raw: string, base?: URL): URL {
  const kind = base ? 'redirect' : 'invalid_url';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new OutboundError(kind, base ? `redirect to an invalid URL: ${raw}` : 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError(kind, `${url.protocol} URLs are not allowed (http and https only)`);
  if (url.username || url.password) throw new OutboundError(kind, 'credentials in the URL are not allowed');
  return url;
}

/** The request for the next hop: 303, and 301/302 after a POST, continue as GET without a body (as browsers do). */
function nextRequest(current: OutboundRequest, from: URL, status: number, to: URL): OutboundRequest {
  const asGet = status === 303 || ((status === 301 || status === 302) && current.method === 'POST');
  const headers = Object.fromEntries(
    Object.entries(current.headers ?? {}).filter(
      ([name]) => !(asGet && BODY_HEADERS.has(name.toLowerCase())) && !(to.origin !== from.origin && ORIGIN_BOUND_HEADERS.has(name.toLowerCase())),
    ),
  );
  return asGet ? { method: current.method === 'HEAD' ? 'HEAD' : 'GET', url: to.href, headers } : { ...current, url: to.href, headers };
}

/**
 * The one client for URLs that partners and their customers control (webhook endpoints, sites
 * to scan): http and https only; each connection resolves the host, checks every address against
 * the policy (see addressVerdict) and connects to the checked address, so a name cannot rebind
 * between check and connect; redirects only when asked, each hop checked again; a connect
 * deadline, a total deadline and a cap on the body bytes read. Connections are not reused.
 */
export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const policy: AddressPolicy = { allowLoopback: options.allowLoopback === true };
  const resolve = options.resolve ?? systemResolver;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const totalTimeoutMs = options.totalTimeoutMs ?? 15_000;
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const maxRedirects = options.maxRedirects ?? 0;
  const keepAliveMs = options.keepAliveMs ?? 0;
  const inFlight = new Set<Client>();
  /** Kept connections per origin, least recently used first (see keepAliveMs). */
  const pools = new Map<string, { pool: Pool; address: string }>();
  const MAX_POOLS = 1_000;
  let closed = false;
  const connector = (onConnected: (address: string) => void) => pinnedConnector({ resolve, policy, connectTimeoutMs, ca: options.ca, onConnected });

  /** The origin's pool of kept connections; connect failures are classified by the connector, so any later failure is the answer's. */
  function pooled(url: URL, state: { connected: boolean; address: string }) {
    let entry = pools.get(url.origin);
    if (entry) pools.delete(url.origin);
    else {
      const created: { pool: Pool; address: string } = { pool: undefined as unknown as Pool, address: '' };
      created.pool = new Pool(url.origin, { keepAliveTimeout: keepAliveMs, keepAliveMaxTimeout: keepAliveMs, connect: connector((address) => (created.address = address)) });
      entry = created;
      if (pools.size >= MAX_POOLS) {
        const [oldest, { pool }] = pools.entries().next().value!;
        pools.delete(oldest);
        void pool.close().catch(() => undefined);
      }
    }
    pools.set(url.origin, entry);
    state.connected = true;
    const current = entry;
    return { dispatcher: current.pool, address: () => current.address, done: async () => undefined };
  }

  /** A connection of its own, so the address it reports is exactly the one it used. */
  function oneShot(url: URL, state: { connected: boolean; address: string }) {
    const client = new Client(url.origin, { pipelining: 0, connect: connector((address) => Object.assign(state, { connected: true, address })) });
    inFlight.add(client);
    return {
      dispatcher: client,
      address: () => state.address,
      done: async () => {
        inFlight.delete(client);
        await client.destroy().catch(() => undefined);
      },
    };
  }

  async function hop(req: OutboundRequest, url: URL, signal: AbortSignal, state: { connected: boolean; address: string }) {
    const { dispatcher, address, done } = keepAliveMs > 0 ? pooled(url, state) : oneShot(url, state);
    try {
      const res = await dispatcher.request({ method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers, body: req.body, signal });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (size + chunk.length > maxBytes) {
          chunks.push(chunk.subarray(0, maxBytes - size));
          size = maxBytes;
          truncated = true;
          // The rest is never read: the connection goes with the stream.
          (res.body as { destroy(): void }).destroy();
          break;
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      state.address = address();
      return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), truncated };
    } finally {
      await done();
    }
  }

  return {
    async request(req) {
      const started = performance.now();
      const signal = AbortSignal.timeout(totalTimeoutMs);
      const state = { connected: false, address: '' };
      try {
        if (closed) throw new OutboundError('connect', 'the outbound client is closed');
        let current = req;
        let url = parseUrl(req.url);
        for (let hops = 0; ; hops++) {
          Object.assign(state, { connected: false, address: '' });
          const res = await hop(current, url, signal, state);
          const location = res.headers.location;
          if (maxRedirects === 0 || !REDIRECTS.has(res.status) || typeof location !== 'string') {
            return { ...res, durationMs: performance.now() - started, address: state.address, url: url.href };
          }
          if (hops >= maxRedirects) throw new OutboundError('redirect', `more than ${maxRedirects} redirect(s)`);
          const next = parseUrl(location, url);
          current = nextRequest(current, url, res.status, next);
          url = next;
        }
      } catch (err) {
        throw classify(err, { deadlinePassed: signal.aborted, connected: state.connected });
      }
    },
    async close() {
      closed = true;
      const kept = [...pools.values()].map(({ pool }) => pool.destroy().catch(() => undefined));
      pools.clear();
      await Promise.all([...[...inFlight].map((client) => client.destroy().catch(() => undefined)), ...kept]);
    },
  };
}
