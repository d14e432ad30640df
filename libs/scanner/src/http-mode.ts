import { loadBuffer } from 'cheerio';
import { jarCookieStore, newCookieJar, seenCookie } from './cookie-jar';
import { guardedFetch, headerValue, type FetchContext } from './fetch';
import { MARKED_IFRAMES } from './findings';
import type { ModeSession, PageVisit, ScanRun } from './session';
import { httpUrl, pageLinks } from './site';

/** Scripts and iframes of one page fetched (for the cookies they set), at most this many, this many at a time. */
const MAX_SUBRESOURCES_PER_PAGE = 50;
const SUBRESOURCE_CONCURRENCY = 4;

const isHtml = (contentType: string | undefined) =>
  !contentType || /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType.trim());

/**
 * http mode: each page fetched with the guarded client, parsed with cheerio; the scripts and
 * iframes it names are fetched too, only for the cookies their answers set (Set-Cookie into a
 * tough-cookie jar, sent back as a browser would). Nothing runs: cookies and scripts that
 * scripts add are seen in browser mode only.
 */
export function httpSession(run: ScanRun): ModeSession {
  const jar = newCookieJar();
  const fetchContext = (signal: AbortSignal): FetchContext => ({
    client: run.client,
    limits: run.limits,
    userAgent: run.userAgent,
    cookies: jarCookieStore(jar),
    signal,
  });
  const fetched = new Set<string>();

  async function fetchSubresources(urls: URL[], signal: AbortSignal): Promise<void> {
    const queue = urls.filter((u) => !fetched.has(u.href)).slice(0, MAX_SUBRESOURCES_PER_PAGE);
    queue.forEach((u) => fetched.add(u.href));
    const worker = async () => {
      for (let next = queue.shift(); next && !signal.aborted; next = queue.shift()) {
        // A script or iframe that fails is not a page error: the page was read.
        await guardedFetch(
          fetchContext(signal),
          { url: next.href, headers: { accept: '*/*' } },
          { followRedirects: true },
        ).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: SUBRESOURCE_CONCURRENCY }, worker));
  }

  return {
    async visit(url): Promise<PageVisit> {
      const signal = AbortSignal.any([run.signal, AbortSignal.timeout(run.limits.pageTimeoutMs)]);
      const page = await guardedFetch(
        fetchContext(signal),
        { url, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' } },
        { followRedirects: true },
      );
      if (page.status < 200 || page.status >= 300 || !isHtml(headerValue(page.headers, 'content-type')))
        return { url: page.url, status: page.status, links: [] };
      const $ = loadBuffer(page.body);
      const base = httpUrl($('base[href]').first().attr('href') ?? '', page.url)?.href ?? page.url;
      const resolved = (selector: string, attribute: string) =>
        $(selector)
          .map((_, el) => httpUrl($(el).attr(attribute) ?? '', base))
          .get()
          .filter((u): u is URL => u !== undefined);
      const scripts = resolved('script[src]', 'src');
      const iframes = resolved('iframe[src], frame[src]', 'src');
      scripts.forEach((u) => run.findings.addScript(u, page.url));
      iframes.forEach((u) => run.findings.addIframe(u, page.url));
      // Held for consent: listed as marked, not fetched (a visitor's browser does not load them either).
      resolved(MARKED_IFRAMES, 'data-src').forEach((u) => run.findings.addIframe(u, page.url, true));
      await fetchSubresources([...scripts, ...iframes], signal);
      const hrefs = $('a[href], area[href]')
        .map((_, el) => $(el).attr('href') ?? '')
        .get();
      return { url: page.url, status: page.status, links: pageLinks(hrefs, base, run.targetHost) };
    },
    async finish() {
      for (const cookie of await jar.store.getAllCookies()) run.findings.addCookie(seenCookie(cookie));
    },
  };
}
