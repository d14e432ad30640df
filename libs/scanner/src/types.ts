import type { ScanError as ScanIssue, ScanFindings, ScanMode } from '@platform/contracts';
import type { ConnectToRule, Resolver } from '@platform/outbound';
import type { SandboxSettings, ScannerLogger } from './sandbox';

// The findings and their categories are the scan report's wire shapes (libs/contracts).
export type { ScanIssue };

export interface ScanLimits {
  /** Pages loaded per scan, the home page included. */
  maxPages: number;
  /** Redirects followed per request, each hop checked again (5). */
  maxRedirects: number;
  /** Bytes of one response (decompressed); a page over it is SCAN.TOO_LARGE. */
  maxPageBytes: number;
  /** One page: its answer (every request), its load and the collection of its findings. */
  pageTimeoutMs: number;
  /** The whole scan; what is not done by then is skipped (SCAN.TIMEOUT) and what was found is kept. */
  scanTimeoutMs: number;
}

/** The domain's name (or subdomain): https:// first, http:// when https cannot connect. */
export interface ScanTarget {
  hostname: string;
  /** 'http': no browser for this scan (the worker's retry of a scan whose earlier run never ended). */
  mode?: ScanMode;
}

export interface ScannerOptions {
  limits: ScanLimits;
  /** auto: browser when Chromium is installed (chromiumPath, else CHROMIUM_PATH, else /usr/bin/chromium), else http. */
  mode: 'auto' | ScanMode;
  chromiumPath?: string;
  /** Development and tests only (SCANNER_ALLOW_LOOPBACK): 127.0.0.0/8 and ::1 may be contacted. */
  allowLoopback: boolean;
  /** SCANNER_CONNECT_TO, parsed by parseConnectTo(): applied to every request, HTTP client and Chromium alike. */
  connectTo: ConnectToRule[];
  /** Sent with every request; names the product, e.g. "PrivacyPlatformScanner/1.0 (+https://.../scanner)". */
  userAgent: string;
  /** Name resolution (tests answer a forbidden address with it); default the system's. */
  resolver?: Resolver;
  /** Trusted CA certificates instead of Node's bundled roots (private CAs, tests). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Chromium's sandbox and the user it runs as when this process is root (docs/scanner.md#the-browsers-sandbox). */
  sandbox?: Omit<SandboxSettings, 'logger'>;
  /** Where a refused browser mode (error) or the no-sandbox override (warning) is reported. */
  logger?: ScannerLogger;
}

export interface ScanResult {
  mode: ScanMode;
  /** The URLs that answered, after redirects, in the order visited. */
  pages: string[];
  findings: ScanFindings;
  errors: ScanIssue[];
  /** Not even the home page could be read. */
  failed: boolean;
}

export interface Scanner {
  /**
   * Scans one site; resolves with a result whatever the site does (down, slow, huge, looping).
   * `signal` is the caller giving up (the worker stopping): the scan then rejects with its reason
   * and nothing is reported.
   */
  scan(target: ScanTarget, signal?: AbortSignal): Promise<ScanResult>;
  /** Closes the browser (if one was launched) and the connections. */
  close(): Promise<void>;
}
