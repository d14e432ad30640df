import type { Kysely } from 'kysely';
import { pendingHooksOf, type CommitHook } from './commit-hooks';
import { sharedTransactionOf } from './transaction-scope';

/**
 * Arranges for `hook` to run once the transaction `db` belongs to has committed, never if it
 * rolls back (nor when the joined call or savepoint that registered it is rolled back). Inside a
 * shared transaction (a request with an Idempotency-Key) that is the shared one's COMMIT, whether
 * `db` is a joined call's transaction or the service's own handle. Resolves false, and arranges
 * nothing, when it cannot promise that: `db` is no transaction (each statement committed on its
 * own), or one of a Kysely not made by createDb.
 */
export async function afterCommit<DB>(db: Kysely<DB>, hook: CommitHook): Promise<boolean> {
  const shared = sharedTransactionOf(db);
  if (shared) db = (await shared.open()) as Kysely<DB>;
  if (!db.isTransaction) return false;
  // A transaction's executor provides its one connection (getExecutor is marked internal in
  // Kysely's typings; it is how Kysely reaches the connection itself).
  return db.getExecutor().provideConnection(async (connection) => {
    const hooks = pendingHooksOf(connection);
    if (!hooks) return false;
    hooks.push(hook);
    return true;
  });
}
