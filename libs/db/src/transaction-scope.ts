import { AsyncLocalStorage } from 'node:async_hooks';
import type { ControlledTransaction, DatabaseConnection, Kysely, Transaction } from 'kysely';

/**
 * Which shared transaction (SharedTransaction) the code running now is inside, for the code that
 * must join it (inTransaction, afterCommit, the driver) without importing it.
 */
export interface JoinableTransaction<DB = unknown> {
  readonly source: object;
  readonly isEnded: boolean;
  open(): Promise<ControlledTransaction<DB>>;
  join<T>(fn: (trx: Transaction<DB>) => Promise<T>, attempts: number): Promise<T>;
  lend(): Promise<DatabaseConnection>;
}

/** The code running now: inside which shared transaction, and inside which of its turns (a joined call), if any. */
interface Scope {
  shared: JoinableTransaction;
  turn?: { active: boolean };
}

/**
 * Made on first use: a process that never shares a transaction does not create it. (On Node 24
 * AsyncLocalStorage runs on AsyncContextFrame, without promise hooks: a promise-heavy loop ran no
 * slower once one existed, so the gateway's keyed writes creating it do not slow its forward path.)
 */
let current: AsyncLocalStorage<Scope> | undefined;
export const scopes = () => (current ??= new AsyncLocalStorage<Scope>());

/** The connection source (dialect) of each createDb handle: what a shared transaction on it lends its connection to. */
const sources = new WeakMap<object, object>();
export const sourceOf = (db: object) => sources.get(db);
export const registerSource = (db: object, source: object) => void sources.set(db, source);

/** The scope the code running now is in, if any. */
export const currentScope = () => current?.getStore();

/**
 * Runs fn outside any shared transaction of the code calling it: for work that serves many
 * requests at once (a group commit), whose statements must not join the transaction of whichever
 * request happened to start it.
 */
export function outsideSharedTransaction<T>(fn: () => T): T {
  return current ? current.exit(fn) : fn();
}

/** The shared transaction that uses of db join here, if one is running for it. */
export function sharedTransactionOf<DB>(db: Kysely<DB>): JoinableTransaction<DB> | undefined {
  const source = sources.get(db);
  return source ? (lendingTransaction(source) as JoinableTransaction<DB> | undefined) : undefined;
}

/** The shared transaction running here for a createDb handle of this source (dialect), if any. */
export function lendingTransaction(source: object): JoinableTransaction | undefined {
  const shared = current?.getStore()?.shared;
  return shared?.source === source && !shared.isEnded ? shared : undefined;
}
