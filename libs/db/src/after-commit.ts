import { PostgresDialect, type DatabaseConnection, type Driver, type Kysely } from 'kysely';

/** Connections whose transactions a CommitHookDialect driver runs (it can keep the promise). */
const hookable = new WeakSet<DatabaseConnection>();
/** Callbacks waiting for the transaction running on a connection to commit. */
const pending = new WeakMap<DatabaseConnection, (() => void)[]>();

/**
 * Arranges for `hook` to run once the transaction `db` is has committed (never if it rolls
 * back; a savepoint rolled back does not cancel it). Resolves false, and arranges nothing, when
 * it cannot promise that: `db` is not a transaction, or not one of a createDb instance. For
 * process-local signals that must not fire before the data is visible to other connections,
 * e.g. waking this process's outbox relay without a NOTIFY.
 */
export async function afterCommit<DB>(db: Kysely<DB>, hook: () => void): Promise<boolean> {
  if (!db.isTransaction) return false;
  // A transaction's executor provides its one connection (getExecutor is marked internal in
  // Kysely's typings; it is how Kysely reaches the connection itself).
  return db.getExecutor().provideConnection(async (connection) => {
    if (!hookable.has(connection)) return false;
    const hooks = pending.get(connection) ?? [];
    hooks.push(hook);
    pending.set(connection, hooks);
    return true;
  });
}

/** PostgresDialect whose driver runs afterCommit hooks after COMMIT, and drops them on ROLLBACK. */
export class CommitHookDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const begin = driver.beginTransaction.bind(driver);
    const commit = driver.commitTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.beginTransaction = async (connection, settings) => {
      hookable.add(connection);
      pending.delete(connection);
      await begin(connection, settings);
    };
    driver.commitTransaction = async (connection) => {
      const hooks = pending.get(connection);
      pending.delete(connection);
      await commit(connection);
      for (const hook of hooks ?? []) hook();
    };
    driver.rollbackTransaction = async (connection) => {
      pending.delete(connection);
      await rollback(connection);
    };
    return driver;
  }
}
