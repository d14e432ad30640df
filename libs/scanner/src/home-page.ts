import { loadBuffer } from 'cheerio';
import { createOutboundClient, type OutboundClient } from '@platform/outbound';
import { jarCookieStore, newCookieJar } from './cookie-jar';
import { ScanError, scanErrorOf, type ScanErrorCode } from './errors';
import { guardedFetch, type FetchContext } from './fetch';
import { httpUrl, targetHostOf } from './site';
import type { ScanLimits, ScannerOptions } from './types';

/** One <script> of the page, in document order. */
export interface PageScript {
  /** Its src resolved against the page (and <base href>); null for an inline script (or a src that is not http(s)). */
  src: string | null;
  /** In <head> as a browser parses the page (a script before the first body content is still in head). */
  inHead: boolean;
  /** A browser runs it: no type, a JavaScript type or module; not JSON data, templates or a type that holds it back. */
  runs: boolean;
}

/** What reading a site's home page gave: the page that answered (after redirects) and its scripts, or why it could not be read. */
export type HomePage =
  | { ok: true; url: string; status: number; scripts: PageScript[] }
  | { ok: false; url: string; code: ScanErrorCode; message: string };

export interface HomePageReaderOptions extends Pick<
  ScannerOptions,
  'allowLoopback' | 'connectTo' | 'userAgent' | 'resolver' | 'ca'
> {
  /** The whole read, https and the http retry included. */
  timeoutMs: number;
  /** The page's bytes (decoded); a larger page is SCAN.TOO_LARGE. */
  maxBytes: number;
}

export interface HomePageReader {
  /** Reads https://<hostname>/, or http:// when https cannot connect; resolves whatever the site does. */
  read(hostname: string): Promise<HomePage>;
  close(): Promise<void>;
}

const JAVASCRIPT_TYPE = /^(module|(text|application)\/(x-)?(java|ecma)script|text\/(jscript|livescript))$/;

/**
 * Whether a browser runs a script of this type attribute: none, a JavaScript MIME type, or module.
 * Parameters are ignored (browsers differ on them): such a script counts as one that runs.
 */
const runsAsScript = (type: string | undefined) => {
  const essence = (type ?? '').split(';')[0].trim().toLowerCase();
  return essence === '' || JAVASCRIPT_TYPE.test(essence);
};

/** The page's scripts, parsed as a browser would (parse5: implied <head> and <body>), in document order. */
export function pageScripts(html: Buffer, pageUrl: string): PageScript[] {
  const $ = loadBuffer(html);
  const base = httpUrl($('base[href]').first().attr('href') ?? '', pageUrl)?.href ?? pageUrl;
  return $('script')
    .map((_, el) => {
      const src = $(el).attr('src');
      return {
        src: src === undefined ? null : (httpUrl(src, base)?.href ?? null),
        inHead: $(el).closest('head').length > 0,
        runs: runsAsScript($(el).attr('type')),
      };
    })
    .get();
}

/** What every read of one reader shares. */
interface Reader {
  client: OutboundClient;
  limits: ScanLimits;
  options: HomePageReaderOptions;
}

/** One attempt; undefined when it was https that could not connect (then http is tried). */
async function attempt(reader: Reader, context: FetchContext, url: string): Promise<HomePage | undefined> {
  try {
    const page = await guardedFetch(
      context,
      { url, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' } },
      { followRedirects: true },
    );
    return { ok: true, url: page.url, status: page.status, scripts: pageScripts(page.body, page.url) };
  } catch (err) {
    const error = scanErrorOf(err, reader.limits);
    const isHttps = url.startsWith('https:');
    if (isHttps && (error.code === 'SCAN.CONNECT_FAILED' || error.code === 'SCAN.TLS_FAILED')) return undefined;
    // The read's own deadline cut the request: that is the site not answering in time.
    const reported =
      error.code === 'SCAN.ABORTED'
        ? new ScanError('SCAN.TIMEOUT', `No complete answer within ${reader.options.timeoutMs} ms.`)
        : error;
    return { ok: false, url, code: reported.code, message: reported.message };
  }
}

async function readHomePage(reader: Reader, hostname: string): Promise<HomePage> {
  const host = targetHostOf(hostname);
  if (!host) return { ok: false, url: String(hostname), code: 'SCAN.INVALID_TARGET', message: 'Not a host name.' };
  const context: FetchContext = {
    client: reader.client,
    limits: reader.limits,
    userAgent: reader.options.userAgent,
    cookies: jarCookieStore(newCookieJar()),
    signal: AbortSignal.timeout(reader.options.timeoutMs),
  };
  const https = await attempt(reader, context, `https://${host}/`);
  return https ?? (await attempt(reader, context, `http://${host}/`))!;
}

/**
 * Reads a site's home page once, as the scanner's first step does (docs/scanner.md): the same
 * guarded outbound client (address policy, connect-to, deadlines, size), https first and http when
 * https cannot connect (refused, or no TLS), redirects followed (at most 5, each checked). Nothing
 * runs: the answer is only parsed. One reader per process; reads may run at once.
 */
export function createHomePageReader(options: HomePageReaderOptions): HomePageReader {
  const client = createOutboundClient({
    allowLoopback: options.allowLoopback,
    resolve: options.resolver,
    connectTo: options.connectTo,
    ca: options.ca,
    maxResponseBytes: options.maxBytes,
    maxRedirects: 0,
    totalTimeoutMs: options.timeoutMs,
    connectTimeoutMs: Math.min(5_000, options.timeoutMs),
  });
  const limits: ScanLimits = {
    maxPages: 1,
    maxRedirects: 5,
    maxPageBytes: options.maxBytes,
    pageTimeoutMs: options.timeoutMs,
    scanTimeoutMs: options.timeoutMs,
  };
  const reader: Reader = { client, limits, options };
  return { read: (hostname) => readHomePage(reader, hostname), close: () => client.close() };
}
