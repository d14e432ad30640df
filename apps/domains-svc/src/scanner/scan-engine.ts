import { z } from 'zod';
import { env } from '@platform/config';
import type { Logger } from '@platform/observability';
import { createHomePageReader, createScanner, parseConnectTo, type HomePageReader } from '@platform/scanner';
import type { ScanEngine } from './scan-worker';

/** The scanner's settings (DOMAINS_ROLE scanner or all); see docs/configuration.md. */
export const scannerConfig = {
  /** Development only: sites on 127.0.0.0/8 and ::1 (npm start and the tests turn it on). */
  SCANNER_ALLOW_LOOPBACK: env.bool(false),
  /** curl --connect-to rules, HOST:PORT:ADDRESS:PORT comma separated (HOST may be * or *.suffix): where the scanner connects for a host. */
  SCANNER_CONNECT_TO: z
    .string()
    .default('')
    .transform((text, ctx) => {
      try {
        return parseConnectTo(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** auto: headless Chromium when it is installed (CHROMIUM_PATH or /usr/bin/chromium), else the HTTP + HTML parser scan. */
  SCANNER_MODE: z.enum(['auto', 'browser', 'http']).default('auto'),
  CHROMIUM_PATH: z.string().min(1).optional(),
  /** When the process is root (development, CI), Chromium runs as this user (a name or uid:gid): Chromium's sandbox refuses root. */
  SCANNER_BROWSER_USER: z.string().min(1).default('nobody'),
  /** Where Chromium's sandbox cannot work, run it without one (warned at start) instead of scanning in http mode. */
  SCANNER_ALLOW_NO_SANDBOX: env.bool(false),
  /** Scans run at once per worker process. */
  SCANNER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  SCANNER_MAX_PAGES: z.coerce.number().int().min(1).max(100).default(10),
  SCANNER_PAGE_TIMEOUT_MS: env.durationMs(15_000),
  SCANNER_SCAN_TIMEOUT_MS: env.durationMs(120_000),
  SCANNER_MAX_PAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .default(5 * 1024 * 1024),
  /** Sent with every request the scanner makes: it names the product, so site owners know who calls. */
  SCANNER_USER_AGENT: z
    .string()
    .min(1)
    .default('PrivacyPlatformScanner/1.0 (+https://privacy-platform.example/scanner)'),
  /** How often a worker with free slots looks for queued scans. */
  SCANNER_POLL_MS: env.durationMs(500),
  /** A domain is scanned again (POST .../scan) only this long after its last scan ended (429 before). */
  SCAN_MIN_INTERVAL_MS: z.coerce.number().int().min(0).default(600_000),
  /** How long a worker's claim holds a scan; a killed worker's scan is taken up again after it. Longer than SCANNER_SCAN_TIMEOUT_MS. */
  SCAN_LEASE_MS: env.durationMs(180_000),
  /** Continuous scanning: properties with has_continuous_scanning are scanned again this often. */
  SCAN_RESCAN_INTERVAL_MS: env.durationMs(7 * 86_400_000),
};
export type ScannerConfig = z.infer<z.ZodObject<typeof scannerConfig>>;

/** The engine the settings describe (@platform/scanner): one per worker process, Chromium launched on its first scan. */
export function scanEngineFromConfig(config: ScannerConfig, logger?: Logger): ScanEngine {
  return createScanner({
    limits: {
      maxPages: config.SCANNER_MAX_PAGES,
      maxRedirects: 5,
      maxPageBytes: config.SCANNER_MAX_PAGE_BYTES,
      pageTimeoutMs: config.SCANNER_PAGE_TIMEOUT_MS,
      scanTimeoutMs: config.SCANNER_SCAN_TIMEOUT_MS,
    },
    mode: config.SCANNER_MODE,
    chromiumPath: config.CHROMIUM_PATH,
    allowLoopback: config.SCANNER_ALLOW_LOOPBACK,
    connectTo: config.SCANNER_CONNECT_TO,
    userAgent: config.SCANNER_USER_AGENT,
    sandbox: { user: config.SCANNER_BROWSER_USER, allowNone: config.SCANNER_ALLOW_NO_SANDBOX },
    logger,
  });
}

/** The install check reads at most this much of a home page (its <head> comes first). */
const INSTALL_CHECK_MAX_BYTES = 2 * 1024 * 1024;

/** The install check's reader (the api role): the scanner's address policy, connect-to rules, agent and page time-out. */
export function homePageReaderFromConfig(config: ScannerConfig): HomePageReader {
  return createHomePageReader({
    allowLoopback: config.SCANNER_ALLOW_LOOPBACK,
    connectTo: config.SCANNER_CONNECT_TO,
    userAgent: config.SCANNER_USER_AGENT,
    timeoutMs: config.SCANNER_PAGE_TIMEOUT_MS,
    maxBytes: Math.min(config.SCANNER_MAX_PAGE_BYTES, INSTALL_CHECK_MAX_BYTES),
  });
}
