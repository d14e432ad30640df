import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/**
 * Chromium's own networking is shut: every name (IP literals too) fails to resolve and any
 * request that escaped interception would go to a proxy that does not exist. So the only way
 * out of the browser is the route handler, which fetches through the guarded outbound client
 * (see browser-mode.ts). WebRTC may not use UDP outside that (absent) proxy.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
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

/** One Chromium per Scanner, launched on first use; launched again if it crashed. */
export class BrowserHost {
  private launching: Promise<Browser> | undefined;
  private closed = false;

  constructor(private readonly executablePath: string) {}

  browser(): Promise<Browser> {
    if (this.closed) return Promise.reject(new Error('the scanner is closed'));
    if (!this.launching) {
      // Loaded on first use: http-only deployments need not install it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { chromium } = require('playwright-core') as typeof import('playwright-core');
      const launching = chromium.launch({
        executablePath: this.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: LAUNCH_TIMEOUT_MS,
      });
      this.launching = launching;
      launching.then(
        (browser) => browser.on('disconnected', () => this.launching === launching && (this.launching = undefined)),
        () => this.launching === launching && (this.launching = undefined),
      );
    }
    return this.launching;
  }

  async close(): Promise<void> {
    this.closed = true;
    const launching = this.launching;
    this.launching = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}
