import type { ScanMode } from '@platform/contracts';
import { createOutboundClient, type OutboundClient } from '@platform/outbound';
import { BrowserHost, chromiumAvailable, chromiumPathOf } from './browser';
import { browserSession } from './browser-mode';
import { Classifier } from './classify';
import { pageTimeout, ScanError, scanErrorOf } from './errors';
import { FindingsCollector } from './findings';
import { httpSession } from './http-mode';
import { BrowserRefusedError } from './sandbox';
import { untilAborted, type ModeSession, type PageVisit, type ScanRun } from './session';
import { targetHostOf } from './site';
import type { ScanIssue, ScanLimits, Scanner, ScannerOptions, ScanResult, ScanTarget } from './types';

/** Connections to a site's origins are kept this long between a scan's requests. */
const KEEP_ALIVE_MS = 2_000;

/** A page's failure as the report says it: a request cut by a deadline is that page's, or the scan's, timeout. */
function pageError(err: unknown, run: ScanRun): ScanError {
  const error = scanErrorOf(err, run.limits);
  if (error.code !== 'SCAN.ABORTED') return error;
  return run.signal.aborted ? scanTimeout(run) : pageTimeout(run.limits);
}

const scanTimeout = (run: ScanRun) =>
  new ScanError(
    'SCAN.TIMEOUT',
    `The scan took longer than ${run.limits.scanTimeoutMs} ms; pages not loaded by then were skipped.`,
  );

/** The home page: https first, http when https cannot connect (refused, or no TLS). */
async function visitHome(session: ModeSession, run: ScanRun, errors: ScanIssue[]) {
  for (const scheme of ['https', 'http']) {
    const url = `${scheme}://${run.targetHost}/`;
    try {
      return await session.visit(url);
    } catch (err) {
      const error = pageError(err, run);
      if (scheme === 'https' && (error.code === 'SCAN.CONNECT_FAILED' || error.code === 'SCAN.TLS_FAILED')) continue;
      errors.push({ url, code: error.code, message: error.message });
      return undefined;
    }
  }
  return undefined;
}

/** The home page, then same-site links breadth first, at most maxPages loads in all (failed ones count). */
async function crawl(
  session: ModeSession,
  run: ScanRun,
): Promise<{ pages: string[]; errors: ScanIssue[]; failed: boolean }> {
  const pages: string[] = [];
  const errors: ScanIssue[] = [];
  const record = (visit: PageVisit) => {
    pages.push(visit.url);
    if (visit.issue) errors.push({ url: visit.url, ...issueOf(visit.issue) });
    if (visit.status >= 400)
      errors.push({ url: visit.url, code: 'SCAN.HTTP_STATUS', message: `The page answered ${visit.status}.` });
  };
  const home = await visitHome(session, run, errors);
  if (!home) return { pages, errors, failed: true };
  record(home);
  const seen = new Set([`https://${run.targetHost}/`, `http://${run.targetHost}/`, home.url]);
  const queue = home.links.filter((link) => !seen.has(link));
  for (let loads = 1; queue.length > 0 && loads < run.limits.maxPages;) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    if (run.signal.aborted) {
      if (!errors.some((e) => e.code === 'SCAN.TIMEOUT')) errors.push({ url, ...issueOf(scanTimeout(run)) });
      break;
    }
    seen.add(url);
    loads += 1;
    try {
      const visit = await session.visit(url);
      seen.add(visit.url);
      record(visit);
      queue.push(...visit.links.filter((link) => !seen.has(link)));
    } catch (err) {
      errors.push({ url, ...issueOf(pageError(err, run)) });
    }
  }
  return { pages, errors, failed: false };
}

const issueOf = (error: ScanError) => ({ code: error.code, message: error.message });

/**
 * The mode's session for one scan; in auto mode a browser that cannot start leaves the scan to
 * http mode, and so does, in any mode, browser mode refused for want of a sandbox.
 */
async function openSession(run: ScanRun, mode: ScanMode, auto: boolean, host: BrowserHost): Promise<OpenSession> {
  if (mode === 'http') return { session: httpSession(run), mode };
  const opening = browserSession(run, host);
  // Opened after the scan gave up: closed at once, never left behind.
  opening.then(
    (session) => (run.signal.aborted ? session.finish() : undefined),
    () => undefined,
  );
  try {
    return withHttpFallback(await untilAborted(opening, run.signal), run);
  } catch (err) {
    if (run.signal.aborted) throw err;
    // Refused (no sandbox, no override): logged once when decided; every scan runs in http mode.
    if (auto || err instanceof BrowserRefusedError) return { session: httpSession(run), mode: 'http' };
    throw new ScanError('SCAN.BROWSER_FAILED', 'The browser could not be started.', { cause: err });
  }
}

interface OpenSession {
  session: ModeSession;
  /** The mode the scan is in: browser mode can give way to http mode (withHttpFallback). */
  readonly mode: ScanMode;
}

/** Browser page time-outs a site may cause before the rest of its scan runs in http mode. */
const BROWSER_TIMEOUTS_PER_SCAN = 2;

/**
 * A site whose pages hold the browser (a script that never yields) is finished in http mode: when
 * the home page, or a second page, answers but does not finish loading in the browser in its
 * time, that page is read again over http
 * and so is the rest of the site, with an error saying why. The scan ends either way.
 */
function withHttpFallback(browser: ModeSession, run: ScanRun): OpenSession {
  let current = browser;
  let mode: ScanMode = 'browser';
  let answered = false;
  let timeouts = 0;
  const session: ModeSession = {
    async visit(url) {
      try {
        const visit = await current.visit(url);
        answered = true;
        return visit;
      } catch (err) {
        const held = current === browser && err instanceof ScanError && err.heldBrowser;
        if (!held || (answered && ++timeouts < BROWSER_TIMEOUTS_PER_SCAN)) throw err;
        current = httpSession(run);
        mode = 'http';
        const visit = await current.visit(url);
        answered = true;
        return { ...visit, issue: visit.issue ?? browserHeld(run.limits) };
      }
    },
    async finish() {
      await browser.finish();
      if (current !== browser) await current.finish();
    },
  };
  return {
    session,
    get mode() {
      return mode;
    },
  };
}

const browserHeld = (limits: ScanLimits) =>
  new ScanError(
    'SCAN.TIMEOUT',
    `The page kept the browser busy past ${limits.pageTimeoutMs} ms; it and the rest of the site were read without running scripts (http mode).`,
  );

/** What every scan of one engine shares. */
interface Engine {
  options: ScannerOptions;
  client: OutboundClient;
  browserHost: BrowserHost;
  mode: ScanMode;
}

/** The guarded outbound client: redirects are followed by the scanner, which keeps each hop's cookies. */
function outboundClientOf(options: ScannerOptions): OutboundClient {
  const { limits } = options;
  return createOutboundClient({
    allowLoopback: options.allowLoopback,
    resolve: options.resolver,
    connectTo: options.connectTo,
    ca: options.ca,
    maxResponseBytes: limits.maxPageBytes,
    maxRedirects: 0,
    totalTimeoutMs: limits.pageTimeoutMs,
    connectTimeoutMs: Math.min(5_000, limits.pageTimeoutMs),
    keepAliveMs: KEEP_ALIVE_MS,
  });
}

/** A scan that could not start: nothing visited, one error, failed. */
const notStarted = (mode: ScanMode, findings: FindingsCollector, url: string, error: ScanError): ScanResult => ({
  mode,
  pages: [],
  findings: findings.result(),
  errors: [{ url, ...issueOf(error) }],
  failed: true,
});

async function scanSite(engine: Engine, target: ScanTarget, signal?: AbortSignal): Promise<ScanResult> {
  const { options, mode } = engine;
  const { limits } = options;
  signal?.throwIfAborted();
  const host = targetHostOf(target.hostname);
  const findings = new FindingsCollector(await Classifier.load(), host ?? '');
  if (!host)
    return notStarted(
      mode,
      findings,
      String(target.hostname),
      new ScanError('SCAN.INVALID_TARGET', 'Not a host name.'),
    );
  const scanSignal = signal
    ? AbortSignal.any([signal, AbortSignal.timeout(limits.scanTimeoutMs)])
    : AbortSignal.timeout(limits.scanTimeoutMs);
  const run: ScanRun = {
    targetHost: host,
    limits,
    userAgent: options.userAgent,
    client: engine.client,
    findings,
    signal: scanSignal,
  };
  let opened: OpenSession;
  try {
    opened = await openSession(
      run,
      target.mode === 'http' ? 'http' : mode,
      options.mode === 'auto',
      engine.browserHost,
    );
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const error = run.signal.aborted ? scanTimeout(run) : scanErrorOf(err, limits);
    return notStarted(mode, findings, `https://${host}/`, error);
  }
  let outcome: Awaited<ReturnType<typeof crawl>>;
  try {
    outcome = await crawl(opened.session, run);
  } finally {
    await opened.session.finish();
  }
  if (signal?.aborted) throw signal.reason;
  return {
    mode: opened.mode,
    pages: outcome.pages,
    findings: findings.result(),
    errors: outcome.errors,
    failed: outcome.failed,
  };
}

/**
 * The scan engine: see docs/scanner.md. One Scanner per worker process: it holds the guarded
 * outbound client (connections kept briefly per origin) and, in browser mode, one Chromium
 * launched on the first scan; each scan gets its own cookie jar or browser context.
 */
export function createScanner(options: ScannerOptions): Scanner {
  const chromiumPath = chromiumPathOf(options.chromiumPath);
  const engine: Engine = {
    options,
    client: outboundClientOf(options),
    browserHost: new BrowserHost(chromiumPath, { ...options.sandbox, logger: options.logger }),
    mode: options.mode === 'auto' ? (chromiumAvailable(chromiumPath) ? 'browser' : 'http') : options.mode,
  };
  // The sandbox is checked now, so a refusal or the override's warning is logged at start, not at the first scan.
  if (engine.mode === 'browser') engine.browserHost.ready().catch(() => undefined);
  return {
    scan: (target, signal) => scanSite(engine, target, signal),
    async close() {
      await engine.browserHost.close();
      await engine.client.close();
    },
  };
}
