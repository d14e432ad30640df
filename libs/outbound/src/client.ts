import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { addressVerdict } from './address';

export type OutboundErrorKind = 'invalid_url' | 'blocked_address' | 'dns' | 'connect' | 'timeout' | 'tls' | 'redirect';

/** Why an outbound request failed, in a class a delivery log can show. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundOptions {
  /** Development and tests only: allow 127.0.0.0/8 and ::1. */
  allowLoopback?: boolean;
  /** Name resolution (tests inject one; default: the system's, every address). */
  resolve?: Resolver;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  /** At most this many bytes of a response body are read; the rest is dropped (truncated: true). */
  maxResponseBytes?: number;
  /** Redirects followed (default 0: a 3xx is returned as it is); each hop is checked again. */
  maxRedirects?: number;
}

export interface OutboundRequest {
  method: Dispatcher.HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
  /** The address the connection was made to (checked, and pinned: no second resolution). */
  address: string;
}

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL|HOSTNAME_MISMATCH)/;

function classify(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as { code?: string; name?: string; message?: string; cause?: unknown };
  if (e?.cause instanceof OutboundError) return e.cause;
  const code = e?.code ?? (e?.cause as { code?: string } | undefined)?.code ?? '';
  const message = e?.message ?? String(err);
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError' || /TIMEOUT/.test(code)) return new OutboundError('timeout', message);
  if (TLS_CODES.test(code)) return new OutboundError('tls', message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return new OutboundError('dns', message);
  return new OutboundError('connect', message);
}

/**
 * The one client for URLs partners and their customers control (webhook endpoints, sites to
 * scan): http(s) only; the host is resolved and every address checked (addressVerdict) when the
 * connection is made, and the connection goes to the checked address (no rebinding between the
 * check and the connect); connect and total deadlines; at most maxResponseBytes read; redirects
 * only when asked, each hop checked again.
 */
export function createOutboundClient(options: OutboundOptions = {}) {
  const resolve = options.resolve ?? systemResolver;
  const totalTimeoutMs = options.totalTimeoutMs ?? 15_000;
  const maxBytes = options.maxResponseBytes ?? 64 * 1024;
  const connector = buildConnector({ timeout: options.connectTimeoutMs ?? 5_000 });
  /** The checked address each host was last connected to (a kept-alive connection stays on it). */
  const pinned = new Map<string, string>();

  const agent = new Agent({
    // Connections are not reused across requests: each one is checked for its own request.
    pipelining: 0,
    connect: (opts, callback) => {
      const hostname = opts.hostname;
      const check = async () => {
        const literal = isIP(hostname.replace(/^\[|\]$/g, ''));
        const addresses = literal ? [{ address: hostname.replace(/^\[|\]$/g, ''), family: literal }] : await resolve(hostname).catch((err: unknown) => {
          throw new OutboundError('dns', `${hostname} did not resolve (${(err as Error).message})`);
        });
        if (addresses.length === 0) throw new OutboundError('dns', `${hostname} has no address`);
        // One forbidden answer blocks the host: a resolver may rotate a private address in later.
        for (const a of addresses) {
          const verdict = addressVerdict(a.address, options);
          if (!verdict.allowed) throw new OutboundError('blocked_address', `${hostname} resolves to a ${verdict.range} address, which is not allowed`);
        }
        return addresses[0].address;
      };
      check().then(
        (address) =>
          connector({ ...opts, hostname: address, servername: isIP(hostname) ? undefined : hostname }, (err, socket) => {
            if (socket) pinned.set(hostname, address);
            callback(err, socket as never);
          }),
        (err: unknown) => callback(err as Error, null),
      );
    },
  });

  async function once(req: OutboundRequest, signal: AbortSignal) {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new OutboundError('invalid_url', 'not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('invalid_url', `${url.protocol} is not allowed (http and https only)`);
    if (url.username || url.password) throw new OutboundError('invalid_url', 'credentials in the URL are not allowed');
    const res = await request(url, { method: req.method, headers: req.headers, body: req.body, dispatcher: agent, signal, maxRedirections: 0 } as Parameters<typeof request>[1]);
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      if (size + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        res.body.destroy();
        break;
      }
      chunks.push(buf);
      size += buf.length;
    }
    return { url, status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), truncated, address: pinned.get(url.hostname) ?? '' };
  }

  return {
    async request(req: OutboundRequest): Promise<OutboundResponse> {
      const started = performance.now();
      const signal = AbortSignal.timeout(totalTimeoutMs);
      try {
        const maxRedirects = options.maxRedirects ?? 0;
        let current = req;
        for (let hop = 0; ; hop++) {
          const res = await once(current, signal);
          const location = res.headers.location;
          const redirect = res.status >= 300 && res.status < 400 && typeof location === 'string';
          if (!redirect || maxRedirects === 0) {
            return { status: res.status, headers: res.headers, body: res.body, truncated: res.truncated, durationMs: performance.now() - started, address: res.address };
          }
          if (hop >= maxRedirects) throw new OutboundError('redirect', `more than ${maxRedirects} redirect(s)`);
          const next = new URL(location, res.url).toString();
          // 303 (and 301/302 after a POST, as browsers do) continue as GET without a body.
          const asGet = res.status === 303 || ((res.status === 301 || res.status === 302) && current.method === 'POST');
          current = asGet ? { method: 'GET', url: next, headers: current.headers } : { ...current, url: next };
        }
      } catch (err) {
        throw classify(err);
      }
    },
    close: () => agent.close(),
  };
}

export type OutboundClient = ReturnType<typeof createOutboundClient>;
