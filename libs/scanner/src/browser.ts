import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { LaunchPlanner, type SandboxSettings } from './sandbox';
import { untilAborted } from './session';

/**
 * Chromium's own networking is shut: every name (IP literals too) fails to resolve and any
 * request that escaped interception would go to a proxy that does not exist. So the only way
 * out of the browser is the route handler, which fetches through the guarded outbound client
 * (see browser-mode.ts). WebRTC may not use UDP outside that (absent) proxy. No --no-sandbox:
 * the sandbox is on unless the operator allowed it off (sandbox.ts).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://scanner-no-direct-network.invalid:1',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

const LAUNCH_TIMEOUT_MS = 30_000;

/** The Chromium to use: the option, else CHROMIUM_PATH, else Debian's package. */
export function chromiumPathOf(option: string | undefined): string {
  return option || process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** Chromium can run here: its executable exists and playwright-core is installed. */
export function chromiumAvailable(executablePath: string): boolean {
  if (!existsSync(executablePath)) return false;
  try {
    require.resolve('playwright-core');
    return true;
  } catch {
    return false;
  }
}

/** What a scan holds of the shared Chromium; release() says whether everything it opened closed. */
export interface BrowserLease {
  browser: Browser;
  /** `clean: false` (a page or context that would not close, e.g. a renderer stuck in a script) retires this Chromium. */
  release(clean: boolean): void;
}

interface Launch {
  browser: Promise<Browser>;
  /** Scans holding it. */
  users: number;
  /** No new scan gets it; closed (every renderer killed) when its last scan releases it. */
  retired: boolean;
}

/** A retiring Chromium gets this long to close before it is left to its process group's end. */
const CLOSE_MS = 10_000;

/**
 * One Chromium per Scanner, launched on first use and again after it crashed. A scan that could
 * not close what it opened (a page whose script never yields keeps its renderer busy) retires
 * it: later scans get a fresh Chromium and the old one, with the stuck renderer, is closed as soon
 * as the scans still on it end, so no renderer burns a core past its scan.
 */
export class BrowserHost {
  private current: Launch | undefined;
  private readonly launches = new Set<Launch>();
  private closed = false;
  private readonly planner: LaunchPlanner;

  constructor(executablePath: string, sandbox: SandboxSettings = {}) {
    this.planner = new LaunchPlanner(executablePath, sandbox);
  }

  /** Decides how Chromium starts (sandbox check, user) without launching it; rejects with BrowserRefusedError. */
  ready(): Promise<unknown> {
    return this.planner.get();
  }

  /** The browser for one scan (launched if need be); the caller must release() it. */
  async acquire(): Promise<BrowserLease> {
    if (this.closed) throw new Error('the scanner is closed');
    const launch = (this.current ??= this.launch());
    launch.users += 1;
    let browser: Browser;
    try {
      browser = await launch.browser;
    } catch (err) {
      this.release(launch, false);
      throw err;
    }
    let released = false;
    return {
      browser,
      release: (clean) => {
        if (released) return;
        released = true;
        this.release(launch, clean);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current = undefined;
    await Promise.all([...this.launches].map((launch) => this.end(launch)));
    this.planner.dispose();
  }

  private launch(): Launch {
    // Loaded on first use: http-only deployments need not install it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    const launch: Launch = {
      browser: this.planner.get().then((plan) =>
        chromium.launch({
          executablePath: plan.executablePath,
          chromiumSandbox: plan.sandbox,
          headless: true,
          args: CHROMIUM_ARGS,
          timeout: LAUNCH_TIMEOUT_MS,
        }),
      ),
      users: 0,
      retired: false,
    };
    this.launches.add(launch);
    launch.browser.then(
      (browser) => browser.on('disconnected', () => this.retire(launch)),
      () => this.retire(launch),
    );
    return launch;
  }

  private release(launch: Launch, clean: boolean): void {
    launch.users -= 1;
    if (!clean) this.retire(launch);
    if (launch.retired && launch.users === 0) void this.end(launch);
  }

  private retire(launch: Launch): void {
    launch.retired = true;
    if (this.current === launch) this.current = undefined;
  }

  private async end(launch: Launch): Promise<void> {
    if (!this.launches.delete(launch)) return;
    const browser = await launch.browser.catch(() => undefined);
    await untilAborted(browser?.close() ?? Promise.resolve(), AbortSignal.timeout(CLOSE_MS)).catch(() => undefined);
  }
}
