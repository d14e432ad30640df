import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type ControlledTransaction, type Kysely, type Transaction } from 'kysely';
import { isRetryable } from './pg-errors';

/**
 * The shared transaction of the code running now, if any. Made on first use: a process that
 * never shares one (the gateway) does not pay for async context tracking on every promise.
 */
let current: AsyncLocalStorage<SharedTransaction<unknown>> | undefined;

/**
 * One transaction that every `inTransaction(db, ...)` inside `run` joins instead of committing on
 * its own: opened by the first, left open after the last, committed or rolled back by its owner.
 * The chassis runs a request with an Idempotency-Key in one, so the key's answer is written and
 * committed together with the request's effect (see libs/service idempotency). Each joined call
 * after the first runs in a savepoint, so its failure (or a deadlock it retries) undoes only its
 * own work, and joined calls run one at a time.
 */
export class SharedTransaction<DB> {
  private opening: Promise<ControlledTransaction<DB>> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private ended = false;

  constructor(readonly db: Kysely<DB>) {}

  /** Runs fn with this transaction shared by every inTransaction on db within it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return (current ??= new AsyncLocalStorage()).run(this as SharedTransaction<unknown>, fn);
  }

  /** The transaction, opened on first use. */
  open(): Promise<ControlledTransaction<DB>> {
    return (this.opening ??= this.db.startTransaction().execute());
  }

  /** Whether anything joined (the transaction is open). */
  get isOpen(): boolean {
    return this.opening !== undefined;
  }

  /** Whether it was committed or rolled back: work still running from its request (not awaited) then uses transactions of its own. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** fn inside the transaction, after the joined calls before it. */
  join<T>(fn: (trx: Transaction<DB>) => Promise<T>, attempts: number): Promise<T> {
    const turn = this.queue.then(() => this.inSavepoint(fn, attempts));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * The first joined call (nothing kept before it) needs no savepoint: when it fails, the whole
   * transaction goes and the next call opens another. That spares two round trips for the usual
   * request with one transaction.
   */
  private async inSavepoint<T>(fn: (trx: Transaction<DB>) => Promise<T>, attempts: number): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const first = this.opening === undefined;
      const trx = await this.open();
      if (!first) await sql`SAVEPOINT joined`.execute(trx);
      try {
        // A transaction fn opens on db itself is its own, as it is outside (and cannot wait for this one's turn).
        const result = await current!.exit(() => fn(trx));
        if (!first) await sql`RELEASE SAVEPOINT joined`.execute(trx);
        return result;
      } catch (err) {
        if (first) await this.discard();
        else await sql`ROLLBACK TO SAVEPOINT joined`.execute(trx);
        if (attempt >= attempts || !isRetryable(err)) throw err;
      }
    }
  }

  /** Commits what joined (nothing when nothing did). */
  async commit(): Promise<void> {
    this.ended = true;
    if (this.opening) await (await this.opening).commit().execute();
  }

  /** Rolls back what joined, and ends it. */
  async rollback(): Promise<void> {
    this.ended = true;
    await this.discard();
  }

  /** Rolls back what joined; a next joined call opens another. A transaction that cannot even roll back is gone already. */
  private async discard(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    const trx = await opening?.catch(() => undefined);
    await trx
      ?.rollback()
      .execute()
      .catch(() => undefined);
  }
}

/** The shared transaction that inTransaction(db) joins here, if one is running for this db. */
export function sharedTransactionOf<DB>(db: Kysely<DB>): SharedTransaction<DB> | undefined {
  const shared = current?.getStore();
  return shared?.db === db && !shared.isEnded ? (shared as SharedTransaction<DB>) : undefined;
}
