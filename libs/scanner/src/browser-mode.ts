import type { BrowserContext, Page, Response } from 'playwright-core';
import type { BrowserHost } from './browser';
import { MainNavigation, routeBrowserRequests } from './browser-routing';
import { MARKED_IFRAMES } from './findings';
import { offSiteNavigation, pageHeldBrowser, pageTimeout, ScanError, tooManyRedirects } from './errors';
import { untilAborted, within, type ModeSession, type PageVisit, type ScanRun } from './session';
import { httpUrl, isSameSite, pageLinks } from './site';

/** After `load`, how long a page may keep loading (scripts adding scripts, cookies) before its findings are read. */
const SETTLE_MS = 2_000;
/** What opening a page, or closing a page or context, may take: past it the browser counts as stuck (see BrowserHost). */
const CLOSE_MS = 5_000;

const LINKS = `Array.from(document.querySelectorAll('a[href], area[href]'), (a) => a.href)`;
const IFRAME_SOURCES = `Array.from(document.querySelectorAll('iframe[src], frame[src]'), (f) => f.src)`;
const MARKED_SOURCES = `Array.from(document.querySelectorAll('${MARKED_IFRAMES}'), (f) => f.getAttribute('data-src'))`;

/**
 * browser mode: a fresh context per scan (no cookies, no cache) in the Scanner's Chromium, every
 * request through routeBrowserRequests. A page loads until `load` (a script that never answers
 * does not hold it past the page's time), then settles, then its frames, links and, at the end,
 * the context's cookies (set by answers and by scripts) are read.
 */
export async function browserSession(run: ScanRun, host: BrowserHost): Promise<ModeSession> {
  const lease = await host.acquire();
  const navigation = new MainNavigation();
  // Whether everything this scan opened closed when asked; if not, its Chromium is retired.
  const health: Health = { clean: true };
  let context: BrowserContext;
  try {
    context = await lease.browser.newContext({
      userAgent: run.userAgent,
      serviceWorkers: 'block',
      acceptDownloads: false,
      viewport: { width: 1280, height: 800 },
    });
  } catch (err) {
    lease.release(false);
    throw err;
  }
  try {
    await context.routeWebSocket(/.*/, (ws) => ws.close());
    await routeBrowserRequests(context, run, navigation);
    navigation.page = await openPage(context, health);
    // Popups are other sites' business; only the crawler's page stays open.
    context.on(
      'page',
      (page) =>
        void page
          .opener()
          .then(
            (opener) => opener && page.close(),
            () => undefined,
          )
          .catch(() => undefined),
    );
  } catch (err) {
    lease.release(
      (await within(
        context.close().then(() => true),
        CLOSE_MS,
      )) === true,
    );
    throw err;
  }
  return {
    visit: (url) => visitPage(run, context, navigation, health, url),
    async finish() {
      const cookies = (await within(context.cookies(), CLOSE_MS)) ?? [];
      for (const c of cookies)
        run.findings.addCookie({
          name: c.name,
          domain: c.domain,
          expiresAt: c.expires > 0 ? new Date(c.expires * 1000) : null,
        });
      const closed =
        (await within(
          context.close().then(() => true),
          CLOSE_MS,
        )) === true;
      lease.release(closed && health.clean);
    },
  };
}

interface Health {
  clean: boolean;
}

/** A new page, or SCAN.BROWSER_FAILED when Chromium does not open one in time (it is then retired). */
async function openPage(context: BrowserContext, health: Health): Promise<Page> {
  const page = await within(context.newPage(), CLOSE_MS);
  if (page) return page;
  health.clean = false;
  throw new ScanError('SCAN.BROWSER_FAILED', 'The browser did not open a page in time.');
}

/** Closes a page without its unload handlers; one that does not close in time marks the scan unclean. */
async function closePage(page: Page, health: Health): Promise<void> {
  if (
    (await within(
      page.close({ runBeforeUnload: false }).then(() => true),
      CLOSE_MS,
    )) !== true
  )
    health.clean = false;
}

async function visitPage(
  run: ScanRun,
  context: BrowserContext,
  navigation: MainNavigation,
  health: Health,
  url: string,
): Promise<PageVisit> {
  const deadline = Date.now() + run.limits.pageTimeoutMs;
  const pageSignal = AbortSignal.any([run.signal, AbortSignal.timeout(run.limits.pageTimeoutMs)]);
  try {
    return await untilAborted(loadAndRead(run, context, navigation, health, url, deadline), pageSignal);
  } catch (err) {
    if (!pageSignal.aborted) throw err;
    // A page that is stuck (or a scan that is over): the page goes, a new one takes the next URL.
    if (!run.signal.aborted) await freshPage(context, navigation, health).catch(() => undefined);
    else await closePage(navigation.page!, health);
    if (run.signal.aborted) throw new ScanError('SCAN.ABORTED', 'The scan was stopped.');
    // The site answered the page (the route handler fulfilled it): the browser, not the site, ran out of time.
    throw navigation.answered ? pageHeldBrowser(run.limits) : pageTimeout(run.limits);
  }
}

/**
 * A new page for the next navigation: after a navigation the route handler refused, Chromium
 * still commits its error page, which would interrupt the next page.goto on the same page.
 */
async function freshPage(context: BrowserContext, navigation: MainNavigation, health: Health): Promise<void> {
  const old = navigation.page;
  navigation.page = await openPage(context, health);
  if (old) await closePage(old, health);
}

/** page.goto, redirects of the main frame followed here (each a new navigation, checked again), at most maxRedirects. */
async function navigate(
  run: ScanRun,
  context: BrowserContext,
  navigation: MainNavigation,
  health: Health,
  url: string,
  deadline: number,
): Promise<Response | null> {
  let current = url;
  for (let hops = 0; ; hops++) {
    navigation.begin();
    let failure: unknown;
    const response = await navigation
      .page!.goto(current, { waitUntil: 'commit', timeout: Math.max(1, deadline - Date.now()) })
      .catch((err: unknown) => {
        failure = err;
        return null;
      });
    const outcome = navigation.end();
    if (outcome.redirect !== undefined || outcome.error || failure) await freshPage(context, navigation, health);
    if (outcome.redirect !== undefined) {
      if (hops >= run.limits.maxRedirects) throw tooManyRedirects(run.limits);
      const next = httpUrl(outcome.redirect, current);
      if (!next) throw new ScanError('SCAN.INVALID_REDIRECT', 'A redirect pointed to a URL that is not http(s).');
      current = next.href;
      continue;
    }
    if (outcome.error) throw outcome.error;
    if (failure)
      throw (failure as Error).name === 'TimeoutError'
        ? pageTimeout(run.limits)
        : new ScanError('SCAN.BROWSER_FAILED', 'The browser could not load the page.', { cause: failure });
    return response;
  }
}

async function loadAndRead(
  run: ScanRun,
  context: BrowserContext,
  navigation: MainNavigation,
  health: Health,
  url: string,
  deadline: number,
): Promise<PageVisit> {
  const response = await navigate(run, context, navigation, health, url, deadline);
  const page: Page = navigation.page!;
  // Keep a share of the page's time for reading it.
  const reserve = Math.min(1_000, run.limits.pageTimeoutMs / 4);
  await within(page.waitForLoadState('load'), deadline - Date.now() - reserve);
  await within(page.waitForLoadState('networkidle'), Math.min(SETTLE_MS, deadline - Date.now() - reserve));
  const status = response?.status() ?? 200;
  const finalUrl = page.url();
  const onSite = httpUrl(finalUrl, 'about:blank');
  // A script sent the page off the site: routing refused it and Chromium shows its error page
  // (chrome-error://chromewebdata/). The page that did load is listed, with the error, nothing of the error page.
  if (!onSite || !isSameSite(onSite.hostname, run.targetHost)) {
    await freshPage(context, navigation, health);
    return { url: response?.url() ?? url, status, links: [], issue: offSiteNavigation() };
  }
  for (const frame of page.frames()) {
    const frameUrl = frame === page.mainFrame() ? undefined : httpUrl(frame.url(), finalUrl);
    if (frameUrl) run.findings.addIframe(frameUrl, frame.parentFrame()?.url() ?? finalUrl);
  }
  const sources = ((await page.evaluate(IFRAME_SOURCES).catch(() => [])) as string[]).map((src) =>
    httpUrl(src, finalUrl),
  );
  sources.forEach((src) => src && run.findings.addIframe(src, finalUrl));
  const marked = (await page.evaluate(MARKED_SOURCES).catch(() => [])) as string[];
  marked.forEach((src) => {
    const u = httpUrl(src, finalUrl);
    if (u) run.findings.addIframe(u, finalUrl, true);
  });
  const html = /^(text\/html|application\/xhtml\+xml)\b/i.test(
    (await response?.headerValue('content-type').catch(() => null)) ?? 'text/html',
  );
  const hrefs = status >= 200 && status < 300 && html ? ((await page.evaluate(LINKS).catch(() => [])) as string[]) : [];
  return { url: finalUrl, status, links: pageLinks(hrefs, finalUrl, run.targetHost) };
}
