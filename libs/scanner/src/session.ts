import type { OutboundClient } from '@platform/outbound';
import type { ScanError } from './errors';
import type { FindingsCollector } from './findings';
import type { ScanLimits } from './types';

/** One scan as a mode sees it. */
export interface ScanRun {
  /** The scanned host (normalised). */
  targetHost: string;
  limits: ScanLimits;
  userAgent: string;
  client: OutboundClient;
  findings: FindingsCollector;
  /** Fires when the scan must stop (its deadline, or the caller giving up). */
  signal: AbortSignal;
}

/** A page that answered. */
export interface PageVisit {
  /** After redirects. */
  url: string;
  status: number;
  /** Same-site page URLs it links to (empty unless a 2xx HTML page). */
  links: string[];
  /** What went wrong after the page answered (its script left the site): the page is still listed, with this error. */
  issue?: ScanError;
}

/** A mode's side of one scan: loads pages (rejecting with a ScanError) and, at the end, hands over the cookies. */
export interface ModeSession {
  visit(url: string): Promise<PageVisit>;
  /** Adds the cookies to the findings and releases what the scan held. Safe after an abort. */
  finish(): Promise<void>;
}

/** A promise that rejects when the signal fires (with the signal's reason), or settles as `work` does. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** `work`'s value, or undefined when it fails or takes longer than `ms`. */
export const within = <T>(work: Promise<T>, ms: number): Promise<T | undefined> =>
  untilAborted(work, AbortSignal.timeout(Math.max(0, ms))).catch(() => undefined);
