import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import type { Cookie } from 'tough-cookie';
import { jarCookieStore, newCookieJar } from './cookie-jar';
import { ScanError, scanErrorOf, type ScanErrorCode } from './errors';
import { guardedFetch, headerValue, type CookieStore, type Fetched } from './fetch';
import { within, type ScanRun } from './session';
import { httpUrl, isSameSite } from './site';

/** Requests one scan may make from the browser (pages, scripts, images, beacons ...); past it they fail. */
export const MAX_BROWSER_REQUESTS_PER_SCAN = 1_000;

/** The main frame's navigation that the crawler started with page.goto, and how it ended in the route handler. */
export class MainNavigation {
  page: Page | undefined;
  private active = false;
  redirect: string | undefined;
  error: ScanError | undefined;
  /** The site answered the crawler's navigation with a page (not a redirect): what the browser does next is the page's doing. */
  answered = false;

  begin(): void {
    Object.assign(this, { active: true, redirect: undefined, error: undefined, answered: false });
  }

  end(): { redirect?: string; error?: ScanError } {
    this.active = false;
    return { redirect: this.redirect, error: this.error };
  }

  isOurs(): boolean {
    return this.active;
  }
}

const ABORT_CODES: Partial<Record<ScanErrorCode, string>> = {
  'SCAN.ADDRESS_REFUSED': 'addressunreachable',
  'SCAN.DNS_FAILED': 'namenotresolved',
  'SCAN.CONNECT_FAILED': 'connectionrefused',
  'SCAN.TIMEOUT': 'timedout',
  'SCAN.ABORTED': 'aborted',
};

/** Headers Chromium gets back: one value per name; cookies are the store's business (see browserCookieStore). */
function fulfillHeaders(headers: Fetched['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      value === undefined ||
      ['set-cookie', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)
    )
      continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const SAME_SITE = { strict: 'Strict', lax: 'Lax', none: 'None' } as const;

/**
 * Cookies in browser mode live in Chromium. Answers' Set-Cookie headers are read here, not by
 * Chromium (a redirect followed by the route handler is invisible to it): each is checked by a
 * tough-cookie jar against the URL that set it and added to the context. Requests carry the
 * browser's Cookie header on their first hop and the context's cookies on later hops.
 */
export function browserCookieStore(context: BrowserContext): CookieStore {
  const addToBrowser = async (cookie: Cookie) => {
    const expires = cookie.expiryTime();
    const sameSite = SAME_SITE[(cookie.sameSite ?? 'lax').toLowerCase() as keyof typeof SAME_SITE] ?? 'Lax';
    await context
      .addCookies([
        {
          name: cookie.key,
          value: cookie.value,
          domain: cookie.hostOnly ? cookie.domain! : `.${cookie.domain}`,
          path: cookie.path ?? '/',
          expires: expires !== undefined && Number.isFinite(expires) ? expires / 1000 : -1,
          httpOnly: cookie.httpOnly,
          secure: cookie.secure,
          sameSite,
        },
      ])
      .catch(() => undefined); // e.g. SameSite=None without Secure: Chromium refuses it, as it would
  };
  const jar = jarCookieStore(newCookieJar(), addToBrowser);
  return {
    async header(url) {
      const cookies = await context.cookies(url);
      return cookies.length > 0 ? cookies.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
    },
    store: jar.store,
  };
}

function frameOf(request: Request) {
  try {
    return request.frame();
  } catch {
    return undefined; // a service worker's request (they are blocked)
  }
}

/**
 * Every request of the scan's browser context goes through here and through the guarded
 * outbound client: address policy, connect-to, deadlines, size, redirects (each hop checked).
 * The main frame's redirects are handed back to the crawler (so the page gets the right URL);
 * other requests' redirects are followed here. Scripts and iframes are recorded as requested.
 */
export async function routeBrowserRequests(
  context: BrowserContext,
  run: ScanRun,
  navigation: MainNavigation,
): Promise<void> {
  const cookies = browserCookieStore(context);
  let requests = 0;
  const handle = async (route: Route) => {
    const request = route.request();
    const url = httpUrl(request.url(), 'about:blank');
    const frame = frameOf(request);
    const mainFrame = frame !== undefined && frame === navigation.page?.mainFrame() && request.isNavigationRequest();
    if (!url || !frame || run.signal.aborted || ++requests > MAX_BROWSER_REQUESTS_PER_SCAN)
      return route.abort('blockedbyclient');
    // A main-frame navigation the crawler did not start (a script's redirect) may stay on the site only.
    if (mainFrame && !navigation.isOurs() && !isSameSite(url.hostname, run.targetHost))
      return route.abort('blockedbyclient');
    const pageUrl = frame.url().startsWith('http') ? frame.url() : `https://${run.targetHost}/`;
    if (request.resourceType() === 'script') run.findings.addScript(url, pageUrl);
    if (request.isNavigationRequest() && frame.parentFrame() !== null)
      run.findings.addIframe(url, frame.parentFrame()!.url());
    const handBack = mainFrame && navigation.isOurs();
    try {
      const res = await guardedFetch(
        { client: run.client, limits: run.limits, userAgent: run.userAgent, cookies, signal: run.signal },
        // allHeaders() has the Cookie header Chromium would send; never wait long for it.
        {
          url: url.href,
          method: request.method() as 'GET',
          headers: (await within(request.allHeaders(), 2_000)) ?? request.headers(),
          body: request.postDataBuffer() ?? undefined,
        },
        { followRedirects: !handBack },
      );
      const location = headerValue(res.headers, 'location');
      if (handBack && res.status >= 300 && res.status < 400 && location !== undefined) {
        navigation.redirect = location;
        return await route.abort('aborted');
      }
      if (handBack) navigation.answered = true;
      await route.fulfill({ status: res.status, headers: fulfillHeaders(res.headers), body: res.body });
    } catch (err) {
      const error = scanErrorOf(err, run.limits);
      if (handBack) navigation.error = error;
      await route.abort(ABORT_CODES[error.code] ?? 'failed');
    }
  };
  await context.route('**/*', (route) => handle(route).catch(() => route.abort('failed').catch(() => undefined)));
}
