import type { DatabaseConnection, Kysely } from 'kysely';

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

/** The hooks waiting for the connection's transaction (afterCommit adds to them), if it is one of a CommitHookDialect. */
export const pendingHooksOf = (connection: DatabaseConnection) => pending.get(connection);

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
