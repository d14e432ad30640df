import type { ClientConfig } from 'pg';
import type { ScanError, ScanFindings } from '@platform/contracts';
import { LeaseWorker, type Clock } from '@platform/jobs';
import { untilAborted } from '@platform/scanner';
import type { Logger } from '@platform/observability';
import type { DomainsContext } from '../context';
import { completeScan, type ScanCompletion } from './scan-completion';
import {
  claimScans,
  findScanHostname,
  releaseScan,
  SCANS_DUE_CHANNEL,
  type ScanOutcome,
  type ScanRow,
} from './scans.repository';
import { noFindings } from './scans.service';

/** What the worker needs of the scan engine (@platform/scanner's Scanner fits it). */
export interface ScanEngine {
  scan(
    target: { hostname: string; mode?: 'http' },
    signal?: AbortSignal,
  ): Promise<{
    mode: 'browser' | 'http';
    pages: string[];
    findings: ScanFindings;
    errors: ScanError[];
    failed: boolean;
  }>;
  close(): Promise<void>;
}

export interface ScanWorkerOptions {
  ctx: Pick<DomainsContext, 'db' | 'settings' | 'merchants'>;
  /** Made on the first scan (a browser is launched lazily), closed by stop(). */
  engine: () => ScanEngine;
  logger: Logger;
  /** Scans run at once by this worker. */
  concurrency: number;
  /** How long a claim holds a scan: longer than a scan may take, so only a dead worker's scan is taken up again. */
  leaseMs: number;
  /** The longest a scan takes (SCANNER_SCAN_TIMEOUT_MS). */
  scanTimeoutMs: number;
  /** How often a worker with free slots claims queued scans (a NOTIFY from the API claims at once). */
  pollMs: number;
  /** Claims of one scan before it is given up as failed (SCAN.ABANDONED): a site that kills every worker that scans it. */
  maxAttempts: number;
  /** Connection settings for LISTEN (the pool's); without them the worker only polls. */
  listen?: ClientConfig;
  clock?: Clock;
  /** Called when a scan has ended (tests, metrics). */
  onEnded?: (scan: ScanRow, completion: ScanCompletion) => void;
}

const systemClock: Clock = { now: () => new Date() };

/**
 * The scanner role's worker, on the one lease-claiming worker of libs/jobs (LeaseWorker): it
 * claims queued scans into its free slots with claimWithLease (SKIP LOCKED + a lease, so several
 * workers never take the same scan and a killed worker's scan comes back when its lease ends)
 * when the API queues one (NOTIFY), every pollMs, and as soon as a slot frees; stop() aborts the
 * scans in flight (each is handed back to the next claim) and closes the engine.
 */
export class ScanWorker {
  private readonly worker: LeaseWorker<ScanRow, 'scans'>;
  private engine: ScanEngine | undefined;
  private readonly clock: Clock;
  /**
   * A scan that has not ended by then is stopped whatever the engine does (it ends itself at the
   * scan time-out; this is the backstop that frees the slot): halfway from the scan time-out to
   * the lease's end, so no other worker can have claimed it yet.
   */
  private readonly hardLimitMs: number;

  constructor(private readonly options: ScanWorkerOptions) {
    // A lease shorter than a scan would hand a live worker's scan to another.
    if (options.leaseMs <= options.scanTimeoutMs)
      throw new Error('SCAN_LEASE_MS must be longer than SCANNER_SCAN_TIMEOUT_MS');
    this.clock = options.clock ?? systemClock;
    this.hardLimitMs = options.scanTimeoutMs + (options.leaseMs - options.scanTimeoutMs) / 2;
    const { db } = options.ctx;
    this.worker = new LeaseWorker<ScanRow, 'scans'>({
      name: 'scan worker',
      logger: options.logger,
      lanes: {
        scans: {
          concurrency: options.concurrency,
          claim: (limit, now) => claimScans(db, { now, leaseMs: options.leaseMs, limit }),
        },
      },
      run: (held, _lane, signal) => this.run(held.item, signal),
      leaseMs: options.leaseMs,
      maxRunMs: this.hardLimitMs,
      pollMs: options.pollMs,
      listen: { channel: SCANS_DUE_CHANNEL, connection: options.listen },
      handBack: async (scans) => void (await Promise.all(scans.map((scan) => releaseScan(db, scan)))),
      clock: this.clock,
    });
  }

  start(): void {
    this.worker.start();
  }

  get inFlight() {
    return this.worker.inFlight;
  }

  /** Waits until no scan is in flight (tests). */
  idle(): Promise<void> {
    return this.worker.idle();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
    await this.engine?.close();
  }

  private async run(scan: ScanRow, signal: AbortSignal): Promise<void> {
    const log = this.options.logger.child({ scanId: scan.id, domainId: scan.domain_id, attempt: scan.attempts });
    try {
      const outcome =
        scan.attempts > this.options.maxAttempts ? abandoned(scan) : await this.scanSite(scan, log, signal);
      // A worker that is stopping hands the scan back to the next claim rather than storing a cut-off report.
      if (!outcome) return void (await releaseScan(this.options.ctx.db, scan));
      const completion = await completeScan(this.options.ctx, scan, outcome, this.clock.now());
      log.info(
        {
          status: outcome.status,
          mode: outcome.mode,
          pages: outcome.pages.length,
          errors: outcome.errors.length,
          ...completion,
        },
        'scan ended',
      );
      this.options.onEnded?.(scan, completion);
    } catch (err) {
      // Its lease ends and another claim takes it up (at most maxAttempts in all).
      log.error({ err }, 'scan could not be completed');
    }
  }

  private async scanSite(scan: ScanRow, log: Logger, signal: AbortSignal): Promise<ScanOutcome | undefined> {
    const hostname = await findScanHostname(this.options.ctx.db, scan.domain_id);
    if (hostname === undefined) return undefined;
    const overdue = AbortSignal.timeout(this.hardLimitMs);
    try {
      this.engine ??= this.options.engine();
      // A scan claimed again was held by a run that never ended (a worker killed or stuck on the
      // site): this run keeps the browser out of it.
      const target = scan.attempts > 1 ? { hostname, mode: 'http' as const } : { hostname };
      const scanSignal = AbortSignal.any([signal, overdue]);
      const result = await untilAborted(this.engine.scan(target, scanSignal), scanSignal);
      if (signal.aborted) return undefined;
      return {
        status: result.failed ? 'failed' : 'completed',
        mode: result.mode,
        pages: result.pages,
        findings: result.findings,
        errors: result.errors,
      };
    } catch (err) {
      if (signal.aborted) return undefined;
      if (overdue.aborted) {
        log.warn({ hardLimitMs: this.hardLimitMs }, 'scan overdue: stopped and its slot freed');
        return failed(hostname, {
          code: 'SCAN.TIMEOUT',
          message: `The scan did not end within ${Math.round(this.hardLimitMs / 1000)} s; it was stopped.`,
        });
      }
      log.error({ err }, 'scan engine failed');
      return failed(hostname, { code: 'SCAN.INTERNAL', message: 'The scanner failed on this site.' });
    }
  }
}

const failed = (hostname: string, error: Omit<ScanError, 'url'>): ScanOutcome => ({
  status: 'failed',
  mode: null,
  pages: [],
  findings: noFindings(),
  errors: [{ url: `https://${hostname}/`, ...error }],
});

/** A scan claimed more than maxAttempts times (each worker died or stopped on it) ends as failed. */
function abandoned(scan: ScanRow): ScanOutcome {
  return {
    status: 'failed',
    mode: null,
    pages: [],
    findings: noFindings(),
    errors: [
      {
        url: '',
        code: 'SCAN.ABANDONED',
        message: `The scan was started ${scan.attempts - 1} times and never ended; it was given up.`,
      },
    ],
  };
}
