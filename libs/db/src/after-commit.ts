import type { DatabaseConnection, Kysely } from 'kysely';
import { sharedTransactionOf } from './shared-transaction';

/**
 * Work for after a commit: a process-local signal (wake this process's outbox relay) or a call
 * to another service (hand it the events just committed). It may return a promise, which the
 * transaction's runner (inTransaction, the shared transaction's commit) awaits before it returns,
 * so a caller answers only once its pushes were sent. It runs after the commit, so nothing can
 * undo it: it handles its own failures (a rejection is ignored).
 */
export type CommitHook = () => unknown;

/** Hooks waiting for the transaction running on a connection to commit (only a CommitHookDialect driver's). */
const pending = new WeakMap<DatabaseConnection, CommitHook[]>();

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
    const hooks = pending.get(connection);
    if (!hooks) return false;
    hooks.push(hook);
    return true;
  });
}

/** Called as the driver begins a transaction on the connection: hooks may be registered from now on. */
export function beginHooks(connection: DatabaseConnection) {
  pending.set(connection, []);
}

/** The hooks registered on the connection's transaction, taken away (its commit then runs none); rollback drops them. */
export function takeHooks(connection: DatabaseConnection): CommitHook[] {
  const hooks = pending.get(connection) ?? [];
  pending.delete(connection);
  return hooks;
}

/** How many hooks the connection's transaction holds: a savepoint's mark, to drop the hooks it registered if it rolls back. */
export const hookMark = (connection: DatabaseConnection) => pending.get(connection)?.length ?? 0;

/** Drops the hooks registered after the mark (their savepoint rolled back). */
export function dropHooksAfter(connection: DatabaseConnection, mark: number) {
  pending.get(connection)?.splice(mark);
}

/** The hooks of the transaction `trx` (of createDb), taken away so the caller runs them once its commit returned. */
export function takeHooksOf<DB>(trx: Kysely<DB>): Promise<CommitHook[]> {
  return trx.getExecutor().provideConnection(async (connection) => takeHooks(connection));
}

/** Runs hooks after their commit, together, and waits for them; a failing hook does not stop the others. */
export async function runHooks(hooks: CommitHook[]): Promise<void> {
  if (hooks.length === 0) return;
  await Promise.allSettled(hooks.map(async (hook) => hook()));
}
