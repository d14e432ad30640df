import type { Kysely } from '@platform/db';
import type { Logger } from '@platform/observability';
import { recordAttempts, type AttemptResult } from './delivery-work.repository';
import type { WebhooksDb } from '../db/tables';

const FLUSH_MAX = 500;

interface Pending {
  result: AttemptResult;
  recorded: () => void;
}
const RETRY_MS = 1_000;

/**
 * Writes attempt results in batches (group commit: results that arrive while a batch is being
 * written go in the next one, one statement per batch). A batch that fails stays buffered and is
 * written again a second later, unless the worker is stopping: then it is given up, and its
 * deliveries are claimed again once their leases end.
 */
export class ResultWriter {
  private readonly pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<WebhooksDb>,
    private readonly log: Logger,
    private readonly stopping: () => boolean,
  ) {}

  /** Buffers the result; resolves once it is written. */
  record(result: AttemptResult): Promise<void> {
    const recorded = new Promise<void>((resolve) => this.pending.push({ result, recorded: resolve }));
    if (this.pending.length >= FLUSH_MAX) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), 0);
    return recorded;
  }

  /** Writes what is buffered now. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.pending.length);
    this.flushing = recordAttempts(
      this.db,
      batch.map((p) => p.result),
    )
      .then(() => batch.forEach((p) => p.recorded()))
      .catch((err: unknown) => this.failed(batch, err))
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  private failed(batch: Pending[], err: unknown): void {
    this.log.warn({ err: (err as Error).message, results: batch.length }, 'recording attempts failed; retrying');
    this.pending.unshift(...batch);
    if (this.stopping()) batch.forEach((p) => p.recorded());
    else this.timer ??= setTimeout(() => void this.flush(), RETRY_MS);
  }
}
