import type { Clock } from '@platform/jobs';
import type { Logger } from '@platform/observability';
import type { ScanError, ScanFindings } from '@platform/contracts';
import { claimScans, releaseScan, type ScanOutcome, type ScanRow } from '../db/scans.repository';
import type { DomainsContext } from './context';
import { completeScan, type ScanCompletion } from './scan-completion';
import { noFindings } from './scans.service';

/** What the worker needs of the scan engine (@platform/scanner's Scanner fits it). */
export interface ScanEngine {
  scan(
    target: { hostname: string },
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
  /** Made on the first scan (a browser is launched lazily), closed by close(). */
  engine: () => ScanEngine;
  logger: Logger;
  /** Scans run at once by this worker. */
  concurrency: number;
  /** How long a claim holds a scan: longer than a scan may take (SCANNER_SCAN_TIMEOUT_MS), so only a dead worker's scan is taken up again. */
  leaseMs: number;
  /** Claims of one scan before it is given up as failed (SCAN.ABANDONED): a site that kills every worker that scans it. */
  maxAttempts: number;
  clock?: Clock;
  /** Called when a scan has ended (tests, metrics). */
  onEnded?: (scan: ScanRow, completion: ScanCompletion) => void;
}

const systemClock: Clock = { now: () => new Date() };

/**
 * The scanner role's worker: each fill() (a job of the runner, every few hundred ms) claims as
 * many queued scans as it has free slots (claimWithLease: SKIP LOCKED + a lease, so several
 * workers never take the same scan and a killed worker's scan comes back when its lease ends) and
 * runs them without waiting; close() aborts the scans in flight and waits for them.
 */
export class ScanWorker {
  private readonly running = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private engine: ScanEngine | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: ScanWorkerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  get inFlight() {
    return this.running.size;
  }

  /** Claims scans for the free slots and starts them; resolves once they are started (not ended). */
  async fill(): Promise<number> {
    if (this.stopping.signal.aborted) return 0;
    const free = this.options.concurrency - this.running.size;
    if (free <= 0) return 0;
    const claimed = await claimScans(this.options.ctx.db, {
      now: this.clock.now(),
      leaseMs: this.options.leaseMs,
      limit: free,
    });
    for (const scan of claimed) {
      const run: Promise<void> = this.run(scan).finally(() => this.running.delete(run));
      this.running.add(run);
    }
    return claimed.length;
  }

  /** Waits until no scan is in flight (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    this.stopping.abort(new Error('scan worker stopping'));
    await Promise.all([...this.running]);
    await this.engine?.close();
  }

  private async run(scan: ScanRow): Promise<void> {
    const log = this.options.logger.child({ scanId: scan.id, domainId: scan.domain_id, attempt: scan.attempts });
    try {
      const outcome = scan.attempts > this.options.maxAttempts ? abandoned(scan) : await this.scanSite(scan, log);
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

  private async scanSite(scan: ScanRow, log: Logger): Promise<ScanOutcome | undefined> {
    const domain = await this.options.ctx.db
      .selectFrom('domains')
      .select('hostname')
      .where('id', '=', scan.domain_id)
      .executeTakeFirst();
    if (!domain) return undefined;
    try {
      this.engine ??= this.options.engine();
      const result = await this.engine.scan({ hostname: domain.hostname }, this.stopping.signal);
      if (this.stopping.signal.aborted) return undefined;
      return {
        status: result.failed ? 'failed' : 'completed',
        mode: result.mode,
        pages: result.pages,
        findings: result.findings,
        errors: result.errors,
      };
    } catch (err) {
      if (this.stopping.signal.aborted) return undefined;
      log.error({ err }, 'scan engine failed');
      return {
        status: 'failed',
        mode: null,
        pages: [],
        findings: noFindings(),
        errors: [
          { url: `https://${domain.hostname}/`, code: 'SCAN.INTERNAL', message: 'The scanner failed on this site.' },
        ],
      };
    }
  }
}

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
