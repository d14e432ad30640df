import { isDataError, outsideSharedTransaction, type Kysely } from '@platform/db';
import { AppError } from '@platform/http';
import { storeRecords, type RecordRow } from './records.repository';
import type { ConsentDb } from './tables';

export interface RecordWriterSettings {
  /** Inserts running at once; past this, new rows wait and go together in the next one. */
  maxInFlight: number;
  /** Rows in one insert at most. */
  maxBatch: number;
}

interface Waiting {
  row: RecordRow;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Receipts stored by group commit: a row goes to PostgreSQL at once while fewer than maxInFlight
 * inserts run (so a quiet site's receipt waits for nothing), and rows that arrive while they all
 * run wait and go together in the next one: one statement and one commit for many receipts,
 * which is most of a receipt's cost under load. A receipt is answered only once its row is
 * committed; a replayed nonce is 400 RECEIPT.REPLAYED as before.
 */
export class RecordWriter {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  /** Inserts issued and rows they carried, since start (rows / inserts is the group size). */
  readonly totals = { inserts: 0, rows: 0 };

  constructor(
    private readonly db: Kysely<ConsentDb>,
    private readonly settings: RecordWriterSettings,
  ) {}

  write(row: RecordRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.inFlight < this.settings.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.settings.maxBatch);
      this.inFlight += 1;
      // A group serves many requests: its insert is none's (not a keyed request's shared transaction).
      void outsideSharedTransaction(() => this.flush(batch)).finally(() => {
        this.inFlight -= 1;
        this.drain();
      });
    }
  }

  private async flush(batch: Waiting[]): Promise<void> {
    try {
      settle(batch, await this.store(batch));
    } catch (err) {
      // A row PostgreSQL refused (a data or integrity error) must not fail its group: each goes
      // alone. Anything else (a full pool, a lost connection) is every row's answer, not retried
      // row by row at the moment the database is least able to take it.
      if (batch.length === 1 || !isDataError(err)) return batch.forEach((w) => w.reject(err));
      await Promise.all(batch.map((w) => this.store([w]).then((stored) => settle([w], stored), w.reject)));
    }
  }

  private store(batch: Waiting[]): Promise<Set<string>> {
    this.totals.inserts += 1;
    this.totals.rows += batch.length;
    return storeRecords(
      this.db,
      batch.map((w) => w.row),
    );
  }
}

function settle(batch: Waiting[], stored: Set<string>): void {
  for (const w of batch) {
    if (stored.has(w.row.id)) w.resolve();
    else w.reject(new AppError('RECEIPT.REPLAYED'));
  }
}
