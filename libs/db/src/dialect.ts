import { PostgresDialect, type Driver } from 'kysely';
import { beginHooks, runHooks, takeHooks } from './commit-hooks';
import { LentConnection } from './shared-transaction';
import { lendingTransaction } from './transaction-scope';

/**
 * PostgresDialect whose driver runs afterCommit hooks after COMMIT (and drops them on ROLLBACK),
 * and, inside a shared transaction on its handle (a request with an Idempotency-Key), hands every
 * query that connection instead of one of the pool (see SharedTransaction).
 */
export class CommitHookDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    const release = driver.releaseConnection.bind(driver);
    const begin = driver.beginTransaction.bind(driver);
    const commit = driver.commitTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.acquireConnection = async () => {
      const shared = lendingTransaction(this);
      return shared ? shared.lend() : acquire();
    };
    driver.releaseConnection = async (connection) =>
      connection instanceof LentConnection ? connection.release() : release(connection);
    driver.beginTransaction = async (connection, settings) => {
      if (connection instanceof LentConnection)
        throw new Error('inside a shared transaction, open transactions with inTransaction (it joins the shared one)');
      beginHooks(connection);
      await begin(connection, settings);
    };
    // inTransaction and the shared transaction take their hooks before COMMIT and wait for them; these are the rest's.
    driver.commitTransaction = async (connection) => {
      const hooks = takeHooks(connection);
      await commit(connection);
      void runHooks(hooks);
    };
    driver.rollbackTransaction = async (connection) => {
      takeHooks(connection);
      await rollback(connection);
    };
    return driver;
  }
}
