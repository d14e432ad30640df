import type { Dispatcher } from 'undici';
import type { AddressPolicy } from './address';
import { systemResolver, type PinnedConnectOptions, type Resolver } from './connect';
import type { ConnectToRule } from './connect-to';
import { createConnections, type Connections, type HopState } from './connections';
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
  /**
   * curl --connect-to rules (see parseConnectTo): a matching host:port connects elsewhere. Applied
   * before the address check, so the mapped target must pass the policy too. Development and tests.
   */
  connectTo?: readonly ConnectToRule[];
}

export interface OutboundRequest {
  method: Dispatcher.HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Ends the request early (the caller gave up): it rejects with kind `aborted`. */
  signal?: AbortSignal;
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError(kind, `${url.protocol} URLs are not allowed (http and https only)`);
  if (url.username || url.password) throw new OutboundError(kind, 'credentials in the URL are not allowed');
  return url;
}

/** The request for the next hop: 303, and 301/302 after a POST, continue as GET without a body (as browsers do). */
function nextRequest(current: OutboundRequest, from: URL, status: number, to: URL): OutboundRequest {
  const asGet = status === 303 || ((status === 301 || status === 302) && current.method === 'POST');
  const headers = Object.fromEntries(
    Object.entries(current.headers ?? {}).filter(
      ([name]) =>
        !(asGet && BODY_HEADERS.has(name.toLowerCase())) &&
        !(to.origin !== from.origin && ORIGIN_BOUND_HEADERS.has(name.toLowerCase())),
    ),
  );
  return asGet
    ? { method: current.method === 'HEAD' ? 'HEAD' : 'GET', url: to.href, headers }
    : { ...current, url: to.href, headers };
}

/** The body's first maxBytes bytes; the rest is never read (the connection goes with the stream). */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      body.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

interface Exchange {
  connections: Connections;
  maxBytes: number;
  maxRedirects: number;
  signal: AbortSignal;
  state: HopState;
}

/** One request to one URL, on a connection of its own or a kept one. */
async function hop(x: Exchange, req: OutboundRequest, url: URL) {
  const { dispatcher, address, done } = x.connections.open(url, x.state);
  try {
    const res = await dispatcher.request({
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: req.headers,
      body: req.body,
      signal: x.signal,
    });
    const { body, truncated } = await readCapped(res.body, x.maxBytes);
    x.state.address = address();
    return { status: res.statusCode, headers: res.headers, body, truncated };
  } finally {
    await done();
  }
}

/** The request and, when asked, its redirects: each hop's URL checked again. */
async function follow(x: Exchange, req: OutboundRequest): Promise<Omit<OutboundResponse, 'durationMs'>> {
  let current = req;
  let url = parseUrl(req.url);
  for (let hops = 0; ; hops++) {
    Object.assign(x.state, { connected: false, address: '' });
    const res = await hop(x, current, url);
    const location = res.headers.location;
    if (x.maxRedirects === 0 || !REDIRECTS.has(res.status) || typeof location !== 'string')
      return { ...res, address: x.state.address, url: url.href };
    if (hops >= x.maxRedirects) throw new OutboundError('redirect', `more than ${x.maxRedirects} redirect(s)`);
    const next = parseUrl(location, url);
    current = nextRequest(current, url, res.status, next);
    url = next;
  }
}

/**
 * The one client for URLs that partners and their customers control (webhook endpoints, sites
 * to scan): http and https only; each connection resolves the host, checks every address against
 * the policy (see addressVerdict) and connects to the checked address, so a name cannot rebind
 * between check and connect; redirects only when asked, each hop checked again; a connect
 * deadline, a total deadline and a cap on the body bytes read. Connections are not reused
 * unless keepAliveMs says so.
 */
export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const connections = createConnections({
    policy: { allowLoopback: options.allowLoopback === true },
    resolve: options.resolve ?? systemResolver,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    ca: options.ca,
    keepAliveMs: options.keepAliveMs ?? 0,
    connectTo: options.connectTo,
  });
  const totalTimeoutMs = options.totalTimeoutMs ?? 15_000;
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const maxRedirects = options.maxRedirects ?? 0;
  let closed = false;

  return {
    async request(req) {
      const started = performance.now();
      const deadline = AbortSignal.timeout(totalTimeoutMs);
      const signal = req.signal ? AbortSignal.any([deadline, req.signal]) : deadline;
      const x: Exchange = { connections, maxBytes, maxRedirects, signal, state: { connected: false, address: '' } };
      try {
        if (closed) throw new OutboundError('connect', 'the outbound client is closed');
        if (req.signal?.aborted) throw new OutboundError('aborted', 'the request was cancelled');
        const res = await follow(x, req);
        return { ...res, durationMs: performance.now() - started };
      } catch (err) {
        if (req.signal?.aborted && !deadline.aborted)
          throw new OutboundError('aborted', 'the request was cancelled', { cause: err });
        throw classify(err, { deadlinePassed: deadline.aborted, connected: x.state.connected });
      }
    },
    async close() {
      closed = true;
      await connections.close();
    },
  };
}
