/**
 * The site scanner's engine: loads a customer's site (home page and a bounded number of same-site
 * pages) and reports the scripts, cookies and iframes it uses, classified. No database, no HTTP
 * server: the scanning worker (domains-svc, DOMAINS_ROLE=scanner) owns one per process:
 *
 *   const scanner = createScanner({
 *     limits: { maxPages: 10, maxRedirects: 5, maxPageBytes: 5 << 20, pageTimeoutMs: 15_000, scanTimeoutMs: 120_000 },
 *     mode: 'auto',                        // browser when Chromium is installed, else http
 *     allowLoopback: false,                // SCANNER_ALLOW_LOOPBACK (development only)
 *     connectTo: parseConnectTo(process.env.SCANNER_CONNECT_TO ?? ''), // throws on a malformed entry
 *     userAgent: 'PrivacyPlatformScanner/1.0 (+https://example.com/scanner)',
 *     sandbox: { user: 'nobody', allowNone: false }, // Chromium's sandbox: see docs/scanner.md
 *     logger,                               // a refused browser mode, the no-sandbox warning
 *   });
 *   const result = await scanner.scan({ hostname: 'shop.example.com' }, stopSignal);
 *   // result: { mode, pages, findings: { scripts, cookies, iframes, counts }, errors, failed }
 *   await scanner.close();               // closes Chromium and the connections
 *
 * A scan always resolves (a site down, slow, huge or looping gives errors, SCAN.*), unless the
 * caller's signal fires: then it rejects with that signal's reason. Every request, Chromium's
 * included, goes through the guarded outbound client (@platform/outbound). See docs/scanner.md.
 */
export { parseConnectTo, type ConnectToRule, type Resolver } from '@platform/outbound';
export { CHROMIUM_ARGS, chromiumAvailable, chromiumPathOf } from './browser';
export { MAX_BROWSER_REQUESTS_PER_SCAN } from './browser-routing';
export { Classifier, TRACKERDB_CATEGORIES, type Classification } from './classify';
export { ScanError, type ScanErrorCode } from './errors';
export { KNOWN_COOKIES, knownCookie, type KnownCookie } from './known-cookies';
export {
  BrowserRefusedError,
  browserUserOf,
  checkChromiumSandbox,
  type BrowserUser,
  type SandboxCheck,
  type SandboxSettings,
  type SandboxVerdict,
  type ScannerLogger,
} from './sandbox';
export { createScanner } from './scanner';
export { untilAborted } from './session';
export { isFirstParty, isSameSite, registrableDomain } from './site';
// Findings, categories and modes are the scan report's wire types: import them from @platform/contracts.
export type { ScanIssue, ScanLimits, ScanResult, Scanner, ScannerOptions, ScanTarget } from './types';
export {
  createHomePageReader,
  pageScripts,
  type HomePage,
  type HomePageReader,
  type HomePageReaderOptions,
  type PageScript,
} from './home-page';
