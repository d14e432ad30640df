import { readFileSync, readlinkSync } from 'node:fs';
import { descendantsOfThisProcess, waitFor } from '@platform/testing';
import { browserUserOf, createScanner, type SandboxCheck, type Scanner, type ScannerOptions } from '../src';
import { BrowserHost, chromiumPathOf } from '../src/browser';
import { fenceNetwork, sitesCert, startSites, testLimits, testResolver, type LocalSites } from './support';

// The real Chromium (/usr/bin/chromium) started by the scanner: from a root process (as in CI) it
// runs as nobody, with its sandbox; where the (injected) check finds no sandbox, browser mode is
// refused unless allowed. Sites on 127.0.0.1 only (support.ts).

interface ChromiumProcess {
  pid: number;
  uid: number;
  args: string[];
  /** 2: a seccomp-bpf filter is on. */
  seccomp: number;
  userNamespace: string;
}

/** This test process's Chromium processes, read from /proc. */
function chromiumProcesses(): ChromiumProcess[] {
  const out: ChromiumProcess[] = [];
  for (const { pid } of descendantsOfThisProcess()) {
    try {
      // Split on spaces too: the zygote and its children rewrite their command line as one string.
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
      if (!args[0]?.endsWith('/chromium')) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      out.push({
        pid,
        args,
        uid: Number(/^Uid:\s+(\d+)/m.exec(status)![1]),
        seccomp: Number(/^Seccomp:\s+(\d+)/m.exec(status)![1]),
        userNamespace: readlinkSync(`/proc/${pid}/ns/user`),
      });
    } catch {
      // Ended while read (a spare renderer).
    }
  }
  return out;
}

const typeOf = (p: ChromiumProcess) => p.args.find((a) => a.startsWith('--type='))?.slice('--type='.length);
/** Root drops to nobody; anyone else runs Chromium as themselves. */
const expectedUid = process.getuid!() === 0 ? browserUserOf('nobody')!.uid : process.getuid!();

const noSandboxHere: SandboxCheck = async () => ({ available: false, reason: 'test: no user namespaces' });

function recordingLogger() {
  const lines: Array<{ level: 'warn' | 'error'; message: string; details: object }> = [];
  return {
    lines,
    warn: (details: object, message: string) => lines.push({ level: 'warn', message, details }),
    error: (details: object, message: string) => lines.push({ level: 'error', message, details }),
  };
}

describe("the scanner's Chromium runs sandboxed and unprivileged", () => {
  it('when the scanner starts Chromium, then every Chromium process runs as the unprivileged user, with the sandbox: no --no-sandbox, a zygote, renderers under seccomp-bpf in their own user namespace, chrome://sandbox content', async () => {
    expect(expectedUid).not.toBe(0);
    const host = new BrowserHost(chromiumPathOf(undefined));
    try {
      const lease = await host.acquire();
      const page = await (await lease.browser.newContext()).newPage();
      await page.setContent('<p>rendered</p>');
      expect(await page.evaluate('document.body.textContent')).toBe('rendered');

      const processes = chromiumProcesses();
      expect(processes.map((p) => p.uid)).toEqual(processes.map(() => expectedUid));
      expect(processes.filter((p) => p.args.includes('--no-sandbox'))).toEqual([]);
      const browser = processes.find((p) => typeOf(p) === undefined)!;
      expect(browser.args).not.toContain('--no-sandbox');
      expect(processes.some((p) => typeOf(p) === 'zygote')).toBe(true);
      const renderers = processes.filter((p) => typeOf(p) === 'renderer');
      expect(renderers.length).toBeGreaterThan(0);
      for (const renderer of renderers) {
        expect(renderer.seccomp).toBe(2);
        expect(renderer.userNamespace).not.toBe(browser.userNamespace);
      }

      await page.goto('chrome://sandbox');
      const report = await page.innerText('body');
      expect(report).toMatch(/Layer 1 Sandbox\s+Namespace/);
      expect(report).toMatch(/Seccomp-BPF sandbox\s+Yes/);
      expect(report).toContain('You are adequately sandboxed.');
      lease.release(true);
    } finally {
      await host.close();
    }
  });

  describe('scans', () => {
    let sites: LocalSites;
    let fence: ReturnType<typeof fenceNetwork>;
    let scanner: Scanner | undefined;
    const make = (overrides: Partial<ScannerOptions>) =>
      (scanner = createScanner({
        limits: testLimits(),
        mode: 'browser',
        allowLoopback: true,
        connectTo: sites.connectTo,
        userAgent: 'PrivacyPlatformScanner/1.0 test',
        resolver: testResolver,
        ca: sitesCert,
        ...overrides,
      }));
    const scripts = async (s: Scanner) => {
      const result = await s.scan({ hostname: 'site.test' });
      return { mode: result.mode, failed: result.failed, scripts: result.findings.scripts.map((f) => f.url) };
    };

    beforeAll(async () => {
      sites = await startSites();
      fence = fenceNetwork();
    });
    afterEach(async () => {
      await scanner?.close();
      scanner = undefined;
      // Each test starts with no Chromium of an earlier one.
      await waitFor(() => chromiumProcesses().length === 0, { what: 'Chromium to exit' });
    });
    afterAll(async () => {
      fence.restore();
      await sites.close();
    });

    it('when a site is scanned in the sandboxed browser, then its scripts run (one adds Hotjar) and are found, and the Chromium that did it is unprivileged and sandboxed', async () => {
      const logger = recordingLogger();
      const s = make({ logger });

      const result = await scripts(s);

      expect(result).toMatchObject({ mode: 'browser', failed: false });
      expect(result.scripts).toContain('https://static.hotjar.com/c/hotjar-1.js');
      const processes = chromiumProcesses();
      expect(processes.length).toBeGreaterThan(0);
      expect(processes.filter((p) => p.uid !== expectedUid || p.args.includes('--no-sandbox'))).toEqual([]);
      expect(logger.lines).toEqual([]);
    });

    it('when no sandbox can work and nothing allows it, then browser mode is refused: the reason is logged once at start, scans run in http mode and no Chromium starts', async () => {
      const logger = recordingLogger();
      const s = make({ logger, sandbox: { check: noSandboxHere } });
      // Logged when the scanner is made, before any scan.
      await waitFor(() => logger.lines.length > 0, { what: 'the refusal to be logged' });

      const first = await scripts(s);
      const second = await scripts(s);

      for (const result of [first, second]) {
        expect(result).toMatchObject({ mode: 'http', failed: false });
        expect(result.scripts).toContain('https://www.google-analytics.com/analytics.js');
        // Only a browser runs app.js, which adds Hotjar.
        expect(result.scripts).not.toContain('https://static.hotjar.com/c/hotjar-1.js');
      }
      expect(chromiumProcesses()).toEqual([]);
      expect(logger.lines).toEqual([
        {
          level: 'error',
          message: expect.stringMatching(
            /^browser mode refused: Chromium's sandbox cannot work here \(test: no user namespaces\); set SCANNER_ALLOW_NO_SANDBOX=true .*http mode$/,
          ),
          details: expect.any(Object),
        },
      ]);
    });

    it('when no sandbox can work and SCANNER_ALLOW_NO_SANDBOX allows it, then a warning is logged at start and Chromium runs without its sandbox, still unprivileged', async () => {
      const logger = recordingLogger();
      const s = make({ logger, sandbox: { check: noSandboxHere, allowNone: true } });
      await waitFor(() => logger.lines.length > 0, { what: 'the warning' });
      expect(logger.lines).toEqual([
        {
          level: 'warn',
          message: expect.stringContaining('Chromium runs WITHOUT its sandbox'),
          details: { reason: 'test: no user namespaces' },
        },
      ]);

      const result = await scripts(s);

      expect(result).toMatchObject({ mode: 'browser', failed: false });
      expect(result.scripts).toContain('https://static.hotjar.com/c/hotjar-1.js');
      const processes = chromiumProcesses();
      const browser = processes.find((p) => typeOf(p) === undefined)!;
      expect(browser.args).toContain('--no-sandbox');
      expect(processes.map((p) => p.uid)).toEqual(processes.map(() => expectedUid));
      expect(logger.lines).toHaveLength(1);
    });

    it('when this process is root and the browser user does not exist, then browser mode is refused whatever the override says', async () => {
      const logger = recordingLogger();
      const s = make({ logger, sandbox: { user: 'no-such-scanner-user', allowNone: true } });

      const result = await scripts(s);

      expect(result.mode).toBe(process.getuid!() === 0 ? 'http' : 'browser');
      if (process.getuid!() === 0)
        expect(logger.lines.map((l) => l.message)).toEqual([
          'browser mode refused: this process is root and the browser user "no-such-scanner-user" does not exist; scans run in http mode',
        ]);
    });
  });
});
