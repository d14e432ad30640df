import {
  sql,
  type CompiledQuery,
  type ControlledTransaction,
  type DatabaseConnection,
  type Kysely,
  type QueryResult,
  type Transaction,
} from 'kysely';
import { dropHooksAfter, hookMark, runHooks, takeHooksOf } from './commit-hooks';
import { inTransaction } from './in-transaction';
import { isRetryable } from './pg-errors';
import { currentScope, scopes, sourceOf, type JoinableTransaction } from './transaction-scope';

/**
 * One transaction that every use of a service's database handle inside `run` joins: the chassis
 * runs a request with an Idempotency-Key in one, so the key's answer is written and committed
 * together with the request's effect (see libs/service idempotency). Inside it:
 * - `inTransaction(db, fn)` runs fn in it (in a savepoint, but for the first call: see join);
 * - a plain query on db (a repository given the handle) runs on its connection too (in a
 *   savepoint, but for the first), so nothing the request writes or reads escapes it;
 * - `afterCommit(db, hook)` waits for its COMMIT, and is dropped if it rolls back.
 * Joined calls and plain queries take turns: one runs at a time, a call nested in a joined call
 * runs within it. Opened by the first use, committed or rolled back by its owner.
 */
export class SharedTransaction<DB> implements JoinableTransaction<DB> {
  readonly source: object;
  private opening: Promise<ControlledTransaction<DB>> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private ended = false;

  constructor(readonly db: Kysely<DB>) {
    const source = sourceOf(db);
    if (!source) throw new Error('a SharedTransaction needs a database handle made by createDb');
    this.source = source;
  }

  /** Runs fn with this transaction shared by every use of db within it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return scopes().run({ shared: this as JoinableTransaction }, fn);
  }

  /** The transaction, opened on first use (on a pool connection of its own, never lent to itself). */
  open(): Promise<ControlledTransaction<DB>> {
    if (!this.opening) {
      const opening = scopes().exit(() => this.db.startTransaction().execute());
      this.opening = opening;
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.opening;
  }

  /** Whether anything joined (the transaction is open). */
  get isOpen(): boolean {
    return this.opening !== undefined;
  }

  /** Whether it was committed or rolled back: work still running from its request (not awaited) then uses transactions of its own. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** fn inside the transaction, in its turn; after the end, in a transaction of its own. */
  join<T>(fn: (trx: Transaction<DB>) => Promise<T>, attempts: number): Promise<T> {
    return this.inTurn(() =>
      this.ended ? scopes().exit(() => inTransaction(this.db, fn, attempts)) : this.inSavepoint(fn, attempts),
    );
  }

  /** The connection a plain query on db runs on here (the driver asks): inside a joined call, that call's; else a turn of its own. */
  async lend(): Promise<LentConnection> {
    if (this.holdsTurn()) return new LentConnection(this, undefined);
    return new LentConnection(this, await this.takeTurn());
  }

  /**
   * One statement of a plain query: inside a joined call, as part of it; in a turn of its own, the
   * first statement opens the transaction (its failure discards it, as a first joined call's) and
   * a later one runs in a savepoint, so its failure undoes only itself. After the end, on the pool.
   */
  async execute<R>(query: CompiledQuery, inOwnTurn: boolean): Promise<QueryResult<R>> {
    if (this.ended) return scopes().exit(() => this.db.executeQuery<R>(query));
    const first = this.opening === undefined;
    const trx = await this.open();
    const connection = await connectionOf(trx);
    if (!inOwnTurn) return connection.executeQuery<R>(query);
    if (!first) return this.savepointed(trx, () => connection.executeQuery<R>(query));
    try {
      return await connection.executeQuery<R>(query);
    } catch (err) {
      await this.discard();
      throw err;
    }
  }

  /**
   * The first joined call (nothing kept before it) needs no savepoint: when it fails, the whole
   * transaction goes and the next call opens another. That spares two round trips for the usual
   * request with one transaction.
   */
  private async inSavepoint<T>(fn: (trx: Transaction<DB>) => Promise<T>, attempts: number): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const first = this.opening === undefined;
      try {
        const trx = await this.open();
        return await (first ? fn(trx) : this.savepointed(trx, () => fn(trx)));
      } catch (err) {
        if (first) await this.discard();
        if (attempt >= attempts || !isRetryable(err)) throw err;
      }
    }
  }

  /** work in a savepoint: rolled back alone when it fails, with the after-commit hooks it registered. */
  private async savepointed<T>(trx: Transaction<DB>, work: () => Promise<T>): Promise<T> {
    const connection = await connectionOf(trx);
    const mark = hookMark(connection);
    await sql`SAVEPOINT joined`.execute(trx);
    try {
      const result = await work();
      await sql`RELEASE SAVEPOINT joined`.execute(trx);
      return result;
    } catch (err) {
      await sql`ROLLBACK TO SAVEPOINT joined`.execute(trx);
      dropHooksAfter(connection, mark);
      throw err;
    }
  }

  /** Whether the code running now is inside one of its turns (a joined call or a plain query's). */
  private holdsTurn(): boolean {
    const scope = currentScope();
    return scope?.shared === this && scope.turn?.active === true;
  }

  /** fn in a turn: after the turns before it, or at once inside the turn the caller is in (a nested call). */
  private async inTurn<T>(fn: () => Promise<T>): Promise<T> {
    if (this.holdsTurn()) return fn();
    const endTurn = await this.takeTurn();
    const turn = { active: true };
    try {
      return await scopes().run({ shared: this as JoinableTransaction, turn }, fn);
    } finally {
      turn.active = false;
      endTurn();
    }
  }

  /** Waits for the turns before it; resolves with the function that ends this one. */
  private takeTurn(): Promise<() => void> {
    let endTurn!: () => void;
    const ended = new Promise<void>((resolve) => (endTurn = resolve));
    const granted = this.queue;
    this.queue = granted.then(() => ended);
    return granted.then(() => endTurn);
  }

  /** Commits what joined (nothing when nothing did), then runs its after-commit hooks and waits for them. */
  async commit(): Promise<void> {
    this.ended = true;
    await this.queue;
    if (!this.opening) return;
    const trx = await this.opening;
    const hooks = await takeHooksOf(trx);
    try {
      await trx.commit().execute();
    } catch (err) {
      // A COMMIT that failed (a deferred constraint, a lost connection) still holds its connection.
      await this.discard();
      throw err;
    }
    await runHooks(hooks);
  }

  /** Rolls back what joined, and ends it. */
  async rollback(): Promise<void> {
    this.ended = true;
    await this.queue;
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

/** The one connection of a transaction (getExecutor is marked internal in Kysely's typings; it is how Kysely reaches it). */
const connectionOf = <DB>(trx: Transaction<DB>) =>
  trx.getExecutor().provideConnection(async (connection) => connection);

/**
 * What the driver hands a plain query on db inside a shared transaction: the transaction's
 * connection, in a turn of the query's own (ended when the driver releases it) or of the joined
 * call the query runs in.
 */
export class LentConnection implements DatabaseConnection {
  constructor(
    private readonly shared: Pick<SharedTransaction<unknown>, 'execute'>,
    private readonly endTurn: (() => void) | undefined,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.shared.execute<R>(query, this.endTurn !== undefined);
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported inside a shared transaction');
  }

  release() {
    this.endTurn?.();
  }
}
