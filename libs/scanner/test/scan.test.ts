import { busyChildProcesses, waitFor } from '@platform/testing';
import type { ScanMode } from '@platform/contracts';
import { createScanner, type ScanResult, type Scanner, type ScannerOptions } from '../src';
import { fenceNetwork, sitesCert, startSites, testLimits, testResolver, type LocalSites } from './support';

// Real local sites on 127.0.0.1 (https with a test CA, http), every name mapped there with
// connect-to; third-party hosts (Google Analytics, Facebook, Hotjar, YouTube) too. The same
// scenarios run in both modes; browser mode uses the real Chromium (/usr/bin/chromium).
const USER_AGENT = 'PrivacyPlatformScanner/1.0 (+https://example.com/scanner) test';

describe.each<[ScanMode]>([['http'], ['browser']])('scanner, %s mode, against local sites', (mode) => {
  let sites: LocalSites;
  let fence: ReturnType<typeof fenceNetwork>;
  const scanners: Scanner[] = [];
  let scanner: Scanner;
  const make = (overrides: Partial<ScannerOptions> = {}) => {
    const made = createScanner({
      limits: testLimits(),
      mode,
      allowLoopback: true,
      connectTo: sites.connectTo,
      userAgent: USER_AGENT,
      resolver: testResolver,
      ca: sitesCert,
      ...overrides,
    });
    scanners.push(made);
    return made;
  };

  beforeAll(async () => {
    sites = await startSites();
    fence = fenceNetwork();
    scanner = make();
  });
  afterAll(async () => {
    await Promise.all(scanners.map((s) => s.close()));
    fence.restore();
    await sites.close();
  });

  const errorCodes = (result: ScanResult) => result.errors.map((e) => [e.url, e.code]);

  it('when a site uses Google Analytics and Facebook scripts, then they are classified analytics and marketing with their vendors; its own script is unclassified', async () => {
    const result = await scanner.scan({ hostname: 'site.test' });

    expect(result.mode).toBe(mode);
    expect(result.failed).toBe(false);
    expect(result.pages[0]).toBe('https://site.test/');
    const scripts = Object.fromEntries(result.findings.scripts.map((s) => [s.url, s]));
    expect(scripts['https://www.google-analytics.com/analytics.js']).toEqual({
      url: 'https://www.google-analytics.com/analytics.js',
      host: 'www.google-analytics.com',
      category: 'analytics',
      vendor: 'Google',
    });
    expect(scripts['https://connect.facebook.net/en_US/fbevents.js']).toEqual({
      url: 'https://connect.facebook.net/en_US/fbevents.js',
      host: 'connect.facebook.net',
      category: 'marketing',
      vendor: 'Meta',
    });
    expect(scripts['https://site.test/app.js']).toMatchObject({
      host: 'site.test',
      category: 'unclassified',
      vendor: null,
    });
    // Added by app.js at run time: only a browser sees it.
    expect(scripts['https://static.hotjar.com/c/hotjar-1.js'] !== undefined).toBe(mode === 'browser');
    if (mode === 'browser')
      expect(scripts['https://static.hotjar.com/c/hotjar-1.js']).toMatchObject({
        category: 'analytics',
        vendor: 'Hotjar',
      });
    expect(sites.hits).toContain('https://www.google-analytics.com/analytics.js');
  });

  it('when the server sets cookies and a script sets one, then the server cookies (first and third party, with expiry) are found, and the script cookie in browser mode only', async () => {
    const started = Date.now();
    const result = await scanner.scan({ hostname: 'site.test' });

    const cookies = Object.fromEntries(result.findings.cookies.map((c) => [c.name, c]));
    expect(cookies.session_id).toEqual({
      name: 'session_id',
      domain: 'site.test',
      expires_at: null,
      first_party: true,
      category: 'unclassified',
      vendor: null,
    });
    expect(cookies.prefs).toMatchObject({ domain: 'site.test', first_party: true, category: 'unclassified' });
    const prefsExpiry = Date.parse(cookies.prefs.expires_at!);
    expect(prefsExpiry).toBeGreaterThanOrEqual(started + 86_400_000 - 60_000);
    expect(prefsExpiry).toBeLessThanOrEqual(Date.now() + 86_400_000 + 60_000);
    expect(cookies.fr).toMatchObject({
      domain: 'facebook.net',
      first_party: false,
      category: 'marketing',
      vendor: 'Meta',
    });
    expect(cookies._ga !== undefined).toBe(mode === 'browser');
    if (mode === 'browser')
      expect(cookies._ga).toMatchObject({
        domain: 'site.test',
        first_party: true,
        category: 'analytics',
        vendor: 'Google',
      });
  });

  it('when the scanner fetches anything, then it names itself with its User-Agent', async () => {
    const before = sites.userAgents.length;
    await scanner.scan({ hostname: 'site.test' });
    const sent = sites.userAgents.slice(before);
    expect(sent.length).toBeGreaterThan(5);
    expect(new Set(sent)).toEqual(new Set([USER_AGENT]));
  });

  it('when a page embeds an iframe, then it is found, classified by its host and reported marked or not', async () => {
    const result = await scanner.scan({ hostname: 'site.test' });
    expect(result.findings.iframes).toContainEqual({
      url: 'https://www.youtube.com/embed/xyz',
      host: 'www.youtube.com',
      category: 'functional',
      marked: false,
    });
    // Held for consent (data-category, data-src): listed, never loaded.
    expect(result.findings.iframes).toContainEqual(
      expect.objectContaining({
        url: 'https://player.vimeo.com/video/76979871',
        host: 'player.vimeo.com',
        marked: true,
      }),
    );
  });

  it('when findings are counted, then each distinct script, cookie and iframe counts once in its category', async () => {
    const { findings } = await scanner.scan({ hostname: 'site.test' });
    const all = [...findings.scripts, ...findings.cookies, ...findings.iframes];
    for (const category of ['necessary', 'functional', 'analytics', 'marketing', 'unclassified'] as const) {
      expect(findings.counts[category]).toBe(all.filter((f) => f.category === category).length);
    }
    expect(findings.counts.analytics).toBeGreaterThanOrEqual(1);
    expect(findings.counts.marketing).toBeGreaterThanOrEqual(2); // fbevents.js and the fr cookie
    expect(new Set(findings.scripts.map((s) => s.url)).size).toBe(findings.scripts.length);
  });

  it('when two scans run at once on one scanner, then each gets its own cookies and findings', async () => {
    const [site, plain] = await Promise.all([
      scanner.scan({ hostname: 'site.test' }),
      scanner.scan({ hostname: 'plain.test' }),
    ]);
    expect(site.findings.cookies.map((c) => c.name)).toContain('session_id');
    expect(plain.findings.cookies).toEqual([]);
    expect(plain.pages).toEqual(['http://plain.test/']);
    expect(plain.findings.scripts.map((s) => s.url)).toEqual(['https://www.google-analytics.com/analytics.js']);
  });

  it('when the site links to many pages, then only same-site pages are loaded, at most maxPages in all', async () => {
    const result = await make({ limits: testLimits({ maxPages: 4 }) }).scan({ hostname: 'site.test' });

    expect(result.pages).toHaveLength(4);
    expect(result.pages[0]).toBe('https://site.test/');
    for (const page of result.pages) expect(new URL(page).hostname).toMatch(/(^|\.)site\.test$/);
    expect(result.pages).toContain('https://blog.site.test/');
    expect(sites.hits.filter((h) => h.includes('other.test') || h.endsWith('.pdf'))).toEqual([]);
    expect(result.errors).toEqual([]);
  });

  it('when a linked page answers 404, then it is in pages with SCAN.HTTP_STATUS and the scan did not fail', async () => {
    const result = await scanner.scan({ hostname: 'other.test' });
    expect(result.pages).toEqual(['https://other.test/', 'https://other.test/gone']);
    expect(result.errors).toEqual([
      { url: 'https://other.test/gone', code: 'SCAN.HTTP_STATUS', message: 'The page answered 404.' },
    ]);
    expect(result.failed).toBe(false);
  });

  it('when the site redirects in a loop, then the report says SCAN.TOO_MANY_REDIRECTS and the scan failed', async () => {
    // The hop count ends it, not the clock: a page time-out that six browser navigations fit on a loaded machine.
    const result = await make({ limits: testLimits({ pageTimeoutMs: 20_000 }) }).scan({ hostname: 'loop.test' });
    expect(errorCodes(result)).toEqual([['https://loop.test/', 'SCAN.TOO_MANY_REDIRECTS']]);
    expect(result.failed).toBe(true);
    expect(sites.hits.filter((h) => h.startsWith('https://loop.test/')).length).toBeLessThanOrEqual(6 * 2); // at most 1 + 5 hops a scan (two scans in this file at most)
  });

  it('when the home page is over the size limit (plain, or a small gzip that inflates past it), then SCAN.TOO_LARGE', async () => {
    expect(errorCodes(await scanner.scan({ hostname: 'big.test' }))).toEqual([['https://big.test/', 'SCAN.TOO_LARGE']]);
    expect(errorCodes(await scanner.scan({ hostname: 'bomb.test' }))).toEqual([
      ['https://bomb.test/', 'SCAN.TOO_LARGE'],
    ]);
  });

  it('when the site never answers, then SCAN.TIMEOUT after the page timeout, not later', async () => {
    const started = Date.now();
    const result = await make({ limits: testLimits({ pageTimeoutMs: 1_500 }) }).scan({ hostname: 'slow.test' });

    expect(errorCodes(result)).toEqual([['https://slow.test/', 'SCAN.TIMEOUT']]);
    expect(result.failed).toBe(true);
    // The first scan of a new scanner also launches Chromium in browser mode.
    expect(Date.now() - started).toBeLessThan(1_500 + (mode === 'browser' ? 8_000 : 2_000));
  });

  it('when the site redirects to a name that resolves to a private address, or to the metadata address, then SCAN.ADDRESS_REFUSED and nothing is sent there', async () => {
    const viaName = await scanner.scan({ hostname: 'refused.test' });
    expect(errorCodes(viaName)).toEqual([['https://refused.test/', 'SCAN.ADDRESS_REFUSED']]);
    expect(viaName.errors[0].message).not.toContain('10.0.0.1');
    expect(viaName.failed).toBe(true);

    const viaLiteral = await scanner.scan({ hostname: 'metadata.test' });
    expect(errorCodes(viaLiteral)).toEqual([['https://metadata.test/', 'SCAN.ADDRESS_REFUSED']]);
    expect(viaLiteral.errors[0].message).not.toContain('169.254');
    // The fence sees every connection (the local sites' among them) and saw nothing but 127.0.0.1.
    expect(fence.attempts).toContain('127.0.0.1');
    expect(fence.attempts.filter((a) => a !== '127.0.0.1')).toEqual([]);
  });

  it('when the target itself resolves to a private address, then SCAN.ADDRESS_REFUSED for the home page, no http retry', async () => {
    const result = await scanner.scan({ hostname: 'intranet.corp.example' });
    expect(errorCodes(result)).toEqual([['https://intranet.corp.example/', 'SCAN.ADDRESS_REFUSED']]);
    expect(result.failed).toBe(true);
    expect(fence.attempts.filter((a) => a !== '127.0.0.1')).toEqual([]);
  });

  it('when https cannot connect, then the home page is read over http', async () => {
    const result = await scanner.scan({ hostname: 'plain.test' });
    expect({ failed: result.failed, errors: result.errors }).toEqual({ failed: false, errors: [] });
    expect(result.pages).toEqual(['http://plain.test/']);
    expect(result.findings.scripts.map((s) => s.category)).toEqual(['analytics']);
  });

  it('when a page navigates off the site by script, then the page is listed (never the browser error page) with SCAN.OFF_SITE_NAVIGATION in browser mode', async () => {
    const before = sites.hits.length;
    const result = await scanner.scan({ hostname: 'away.test' });
    expect(result.pages).toEqual(['http://away.test/']);
    expect({ failed: result.failed, errors: errorCodes(result) }).toEqual({
      failed: false,
      // http mode runs no scripts: the page never leaves.
      errors: mode === 'browser' ? [['http://away.test/', 'SCAN.OFF_SITE_NAVIGATION']] : [],
    });
    expect(sites.hits.slice(before).filter((hit) => !hit.startsWith('http://away.test/'))).toEqual([]);
  });

  it("when the home page's script never yields, then it ends at the page timeout and the site is read in http mode, SCAN.TIMEOUT saying so (browser mode); no renderer keeps a core busy", async () => {
    const started = Date.now();
    const result = await make({ limits: testLimits({ pageTimeoutMs: 2_000 }) }).scan({ hostname: 'spin.test' });

    expect(result.pages).toEqual(['http://spin.test/']);
    expect(result.failed).toBe(false);
    if (mode === 'browser') {
      expect(result.mode).toBe('http');
      expect(errorCodes(result)).toEqual([['http://spin.test/', 'SCAN.TIMEOUT']]);
      expect(result.errors[0].message).toContain('read without running scripts (http mode)');
    } else expect(result.errors).toEqual([]);
    // One page time-out (and Chromium's launch), not the scan's 30 s.
    expect(Date.now() - started).toBeLessThan(2_000 + 10_000);
    expect(await busyChildProcesses()).toEqual([]);
  });

  it('when one linked page never yields, then only that page has SCAN.TIMEOUT and the rest of the site is still read in the browser', async () => {
    const result = await make({ limits: testLimits({ pageTimeoutMs: 2_000 }) }).scan({ hostname: 'spinlater.test' });

    expect(result.mode).toBe(mode);
    // http mode runs no scripts: the page that spins in a browser is read like any other.
    expect(result.pages).toEqual(
      mode === 'browser'
        ? ['http://spinlater.test/', 'http://spinlater.test/calm']
        : ['http://spinlater.test/', 'http://spinlater.test/spin', 'http://spinlater.test/calm'],
    );
    expect(errorCodes(result)).toEqual(mode === 'browser' ? [['http://spinlater.test/spin', 'SCAN.TIMEOUT']] : []);
    expect(await busyChildProcesses()).toEqual([]);
  });

  it('when the whole scan takes longer than scanTimeoutMs, then it ends then with SCAN.TIMEOUT for the scan', async () => {
    const started = Date.now();
    const result = await make({ limits: testLimits({ pageTimeoutMs: 20_000, scanTimeoutMs: 1_500 }) }).scan({
      hostname: 'slow.test',
    });

    expect(errorCodes(result)).toEqual([['https://slow.test/', 'SCAN.TIMEOUT']]);
    expect(result.errors[0].message).toContain('The scan took longer than 1500 ms');
    expect(Date.now() - started).toBeLessThan(1_500 + 5_000);
  });

  it('when the caller aborts a scan (the worker stops), then the scan rejects with that reason at once', async () => {
    const controller = new AbortController();
    const before = sites.hits.filter((h) => h === 'https://slow.test/').length;
    const scan = make({ limits: testLimits({ pageTimeoutMs: 20_000 }) }).scan(
      { hostname: 'slow.test' },
      controller.signal,
    );
    await waitFor(() => sites.hits.filter((h) => h === 'https://slow.test/').length > before, {
      timeoutMs: 15_000,
      what: 'the scan to reach slow.test',
    });
    const started = Date.now();
    controller.abort(new Error('worker stopping'));

    await expect(scan).rejects.toThrow('worker stopping');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('when a page opens a WebSocket, then it never leaves the browser (nothing reaches the site)', async () => {
    await scanner.scan({ hostname: 'site.test' });
    expect(sites.hits.filter((h) => h.startsWith('ws'))).toEqual([]);
  });

  it('when the target is not a host name, then the scan fails with SCAN.INVALID_TARGET and nothing is fetched', async () => {
    const before = sites.hits.length;
    const result = await scanner.scan({ hostname: 'https://site.test/path' });
    expect(result.errors.map((e) => e.code)).toEqual(['SCAN.INVALID_TARGET']);
    expect(result.failed).toBe(true);
    expect(sites.hits.length).toBe(before);
  });
});

describe('scanner mode choice', () => {
  let sites: LocalSites;
  const scanners: Scanner[] = [];
  const make = (overrides: Partial<ScannerOptions>) => {
    const made = createScanner({
      limits: testLimits(),
      mode: 'auto',
      allowLoopback: true,
      connectTo: sites.connectTo,
      userAgent: USER_AGENT,
      resolver: testResolver,
      ca: sitesCert,
      ...overrides,
    });
    scanners.push(made);
    return made;
  };
  beforeAll(async () => {
    sites = await startSites();
  });
  afterAll(async () => {
    await Promise.all(scanners.map((s) => s.close()));
    await sites.close();
  });

  it('when mode is auto and Chromium is not installed, then the scan runs in http mode and says so', async () => {
    const result = await make({ mode: 'auto', chromiumPath: '/nonexistent/chromium' }).scan({ hostname: 'site.test' });
    expect(result.mode).toBe('http');
    expect(result.failed).toBe(false);
  });

  it('when mode is browser and Chromium cannot start, then the scan fails with SCAN.BROWSER_FAILED (no exception)', async () => {
    const result = await make({ mode: 'browser', chromiumPath: '/nonexistent/chromium' }).scan({
      hostname: 'site.test',
    });
    expect(result).toMatchObject({ mode: 'browser', failed: true, pages: [] });
    expect(result.errors.map((e) => e.code)).toEqual(['SCAN.BROWSER_FAILED']);
  });
});
