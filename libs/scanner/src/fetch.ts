import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { OutboundClient, OutboundRequest } from '@platform/outbound';
import { ScanError, scanErrorOf, tooLarge, tooManyRedirects } from './errors';
import { httpUrl } from './site';
import type { ScanLimits } from './types';

/** Where a fetch keeps the cookies its answers set and finds the ones to send (a tough-cookie jar, or the browser's). */
export interface CookieStore {
  /** The Cookie header for a request to this URL, if any. */
  header(url: string): Promise<string | undefined>;
  /** The Set-Cookie headers of an answer from this URL (invalid ones are dropped, as browsers do). */
  store(url: string, setCookies: string[]): Promise<void>;
}

export interface FetchContext {
  client: OutboundClient;
  limits: ScanLimits;
  userAgent: string;
  cookies: CookieStore;
  /** The scan's signal: stops every request of it. */
  signal: AbortSignal;
}

export interface FetchRequest {
  url: string;
  method?: OutboundRequest['method'];
  /** Lower-case names. A `cookie` header is sent on the first hop instead of the store's. */
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface Fetched {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Decoded (no content-encoding), at most maxPageBytes. */
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Set by the client (or by us) for each hop, never taken from the page's request. */
const OWN_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'cookie',
  'user-agent',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

export function headerValue(headers: Fetched['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function headerList(headers: Fetched['headers'], name: string): string[] {
  const value = headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

const decoders: Record<string, (body: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip),
  br: promisify(zlib.brotliDecompress),
  // "deflate" is zlib-wrapped by the standard, raw in some servers' practice.
  deflate: (body, options) =>
    promisify(zlib.inflate)(body, options).catch(() => promisify(zlib.inflateRaw)(body, options)),
};

/** The body without its content-encoding, capped at maxPageBytes decoded (a small gzip can expand a thousandfold). */
async function decoded(
  body: Buffer,
  encoding: string | undefined,
  limits: ScanLimits,
): Promise<{ body: Buffer; decodedFrom?: string }> {
  const name = encoding?.trim().toLowerCase();
  const decode = name ? decoders[name] : undefined;
  if (!decode) return { body };
  try {
    return { body: await decode(body, { maxOutputLength: limits.maxPageBytes }), decodedFrom: name };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw tooLarge(limits);
    throw new ScanError('SCAN.BAD_RESPONSE', `The answer's ${name} encoding is broken.`, { cause: err });
  }
}

/** The next hop's request: 303, and 301/302 after a POST, continue as GET without a body (as browsers do). */
function nextHop(current: FetchRequest, status: number, to: URL): FetchRequest {
  const method = current.method ?? 'GET';
  const asGet = status === 303 || ((status === 301 || status === 302) && method === 'POST');
  const headers = Object.fromEntries(
    Object.entries(current.headers ?? {}).filter(
      ([name]) => name !== 'cookie' && !(asGet && name.startsWith('content-')),
    ),
  );
  return asGet
    ? { url: to.href, method: method === 'HEAD' ? 'HEAD' : 'GET', headers }
    : { ...current, url: to.href, headers };
}

/**
 * One request of a scan through the guarded outbound client (address policy, connect-to,
 * deadlines): redirects followed when asked, at most maxRedirects, each hop checked again and
 * its cookies stored; the body decoded and held to maxPageBytes. Rejects with a ScanError.
 * With `followRedirects: false` a 3xx is returned as it is (its cookies stored).
 */
export async function guardedFetch(
  x: FetchContext,
  request: FetchRequest,
  options: { followRedirects: boolean },
): Promise<Fetched> {
  let current = request;
  for (let hops = 0; ; hops++) {
    const url = current.url;
    const pageHeaders = Object.fromEntries(
      Object.entries(current.headers ?? {}).filter(([name]) => !OWN_HEADERS.has(name) && !name.startsWith(':')),
    );
    const cookie = (hops === 0 ? current.headers?.cookie : undefined) ?? (await x.cookies.header(url));
    const headers = {
      ...pageHeaders,
      'user-agent': x.userAgent,
      'accept-encoding': 'gzip, deflate, br',
      ...(cookie ? { cookie } : {}),
    };
    const res = await x.client
      .request({ method: current.method ?? 'GET', url, headers, body: current.body, signal: x.signal })
      .catch((err: unknown) => {
        throw scanErrorOf(err, x.limits);
      });
    if (res.truncated) throw tooLarge(x.limits);
    await x.cookies.store(url, headerList(res.headers, 'set-cookie'));
    const location = headerValue(res.headers, 'location');
    if (options.followRedirects && REDIRECTS.has(res.status) && location !== undefined) {
      if (hops >= x.limits.maxRedirects) throw tooManyRedirects(x.limits);
      const next = httpUrl(location, url);
      if (!next) throw new ScanError('SCAN.INVALID_REDIRECT', 'A redirect pointed to a URL that is not http(s).');
      current = nextHop(current, res.status, next);
      continue;
    }
    const { body, decodedFrom } = await decoded(res.body, headerValue(res.headers, 'content-encoding'), x.limits);
    const headersOut = { ...res.headers };
    if (decodedFrom) {
      delete headersOut['content-encoding'];
      delete headersOut['content-length'];
    }
    return { url, status: res.status, headers: headersOut, body };
  }
}
