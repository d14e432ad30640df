import type { Kysely, Transaction } from 'kysely';
import { AppError } from '@platform/http';
import { runHooks, takeHooksOf } from './commit-hooks';
import { isRetryable } from './pg-errors';
import { sharedTransactionOf } from './transaction-scope';

/**
 * Runs fn in a transaction, and again (up to `attempts` times) when PostgreSQL aborts it for a
 * deadlock or a serialization failure: concurrent writers then get an answer, not a 500. Once it
 * committed, the afterCommit hooks fn registered run, and it returns when they are done.
 * fn must have no effect outside the transaction (an effect for after the commit is a hook).
 * Inside a SharedTransaction on db (a request with an Idempotency-Key), fn joins that one instead,
 * and it commits (and runs the hooks) when the request has its answer.
 */
export async function inTransaction<DB, T>(
  db: Kysely<DB>,
  fn: (trx: Transaction<DB>) => Promise<T>,
  attempts = 4,
): Promise<T> {
  const shared = sharedTransactionOf(db);
  if (shared) return shared.join(fn, attempts);
  for (let attempt = 1; ; attempt++) {
    try {
      const { result, hooks } = await db.transaction().execute(async (trx) => {
        const result = await fn(trx);
        return { result, hooks: await takeHooksOf(trx) };
      });
      await runHooks(hooks);
      return result;
    } catch (err) {
      if (!isRetryable(err)) throw err;
      // Still contended after every attempt: the caller may retry later; it is not a bug (500).
      if (attempt >= attempts)
        throw Object.assign(
          new AppError('SERVICE.UNAVAILABLE', 'The service is busy with concurrent changes; retry later.'),
          { cause: err },
        );
      // A short random pause, so the transactions that collided do not collide again at once.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
