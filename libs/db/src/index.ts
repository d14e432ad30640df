import { Kysely, sql, type CompiledQuery, type Migration, type RawBuilder, type Transaction } from 'kysely';
import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { CommitHookDialect } from './dialect';
import { pgErrorCode, unavailableWhenBusy } from './pg-errors';
import { serviceRoleOption } from './service-role';
import { registerSource } from './transaction-scope';

export { sql };
export { afterCommit } from './after-commit';
export type { CommitHook } from './commit-hooks';
export { inTransaction } from './in-transaction';
export { SharedTransaction } from './shared-transaction';
export { outsideSharedTransaction } from './transaction-scope';
export { listen, type Listener } from './listen';
export { migrateToLatest } from './migrate';
export { isDataError, isUniqueViolation, PG_FOREIGN_KEY_VIOLATION, rethrowUnique } from './pg-errors';
export { ensureServiceRole, serviceRoleName, serviceRoleUrl } from './service-role';
export type { Kysely, Transaction, Migration };

export interface DbOptions {
  url: string;
  /** The service's own schema; it is the connection's search_path. */
  schema: string;
  max?: number;
  /** How long a query waits for a free connection before it gives up with 503 SERVICE.UNAVAILABLE (default 1 s). */
  acquireTimeoutMs?: number;
  statementTimeoutMs?: number;
  /**
   * Connections run as the service's role `svc_<schema>` (see ensureServiceRole), which can touch
   * only its schema. Off: they run as the URL's user (migrations, operator tools).
   */
  asServiceRole?: boolean;
}

function createPool(options: DbOptions): Pool {
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    // Within the callers' deadlines (2 s between services): a full pool is a prompt 503, never a 500.
    connectionTimeoutMillis: options.acquireTimeoutMs ?? 1_000,
    // Short OLTP queries, prepared once per connection (see preparingPool): with the default
    // plan_cache_mode PostgreSQL re-plans `LIMIT $n` queries on every call (their generic cost
    // estimate looks worse), and planning a three-table join costs more than running it: 2.7k vs
    // 10k list queries/s measured. Parallel workers would cost ~5 ms each to start.
    options: [
      `-c search_path=${options.schema}`,
      `-c statement_timeout=${options.statementTimeoutMs ?? 10_000}`,
      '-c plan_cache_mode=force_generic_plan',
      '-c max_parallel_workers_per_gather=0',
      // A generic plan's cost is estimated for unknown parameters (a LIMIT $n is 10% of the rows), so
      // a 10-row page over a million-row table passes jit_above_cost and is JIT-compiled on every
      // call: 70 ms of compiling for a 0.1 ms query (consent records, measured). Short queries never gain from JIT.
      '-c jit=off',
      ...(options.asServiceRole ? [serviceRoleOption(options.schema)] : []),
    ].join(' '),
    application_name: options.schema,
  };
  const pool = new Pool(config);
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

export function createDb<DB>(options: DbOptions): { db: Kysely<DB>; pool: Pool } {
  const pool = createPool(options);
  const dialect = new CommitHookDialect({ pool: preparingPool(pool) });
  const db = new Kysely<DB>({ dialect });
  registerSource(db, dialect);
  return { db, pool };
}

/** A handle on a pool made elsewhere, with afterCommit hooks (for a library given only the pool). */
export function dbOnPool<DB>(pool: Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new CommitHookDialect({ pool }) });
}

const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const MAX_PREPARED = 2_000;

/**
 * Kysely sends every query unnamed, so PostgreSQL plans it on every call: for a three-table join
 * that is ~80% of its cost (measured 3.4k vs 17k queries/s on 2 cores). Naming each distinct
 * DML text makes pg prepare it once per connection and PostgreSQL reuse the plan.
 */
function preparingPool(pool: Pool) {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED && PREPARABLE.test(text)) {
      name = `k${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const wrap = (client: PoolClient) =>
    new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver);
        return (config: unknown, values?: unknown[]) => {
          const name = typeof config === 'string' ? nameOf(config) : undefined;
          return name === undefined
            ? target.query(config as string, values)
            : target.query({ name, text: config as string, values });
        };
      },
    });
  return {
    connect: async () => wrap(await pool.connect().catch(unavailableWhenBusy)),
    end: () => pool.end(),
  };
}

/** Checks the database answers; used by readiness probes and fail-fast boot. */
export async function ping(db: Kysely<unknown>) {
  await sql`SELECT 1`.execute(db);
}

/**
 * Runs one statement inside a savepoint and says whether it succeeded; a failure with one of the
 * given PostgreSQL codes rolls back only that statement, so the transaction carries on.
 */
export async function tryInSavepoint<DB>(
  trx: Kysely<DB>,
  statement: () => Promise<unknown>,
  tolerated: string[],
): Promise<boolean> {
  await sql`SAVEPOINT attempt`.execute(trx);
  try {
    await statement();
    await sql`RELEASE SAVEPOINT attempt`.execute(trx);
    return true;
  } catch (err) {
    if (!tolerated.includes(pgErrorCode(err) ?? '')) throw err;
    await sql`ROLLBACK TO SAVEPOINT attempt`.execute(trx);
    return false;
  }
}

interface Compilable<O> {
  compile(): CompiledQuery<O>;
}

type Params = Record<string, unknown>;

/**
 * Builds and compiles a query once per shape and then only swaps its parameters: Kysely's
 * builder costs ~125 us per call on a small machine, more than the database round trip of a
 * keyed read. The shape is the set of parameters given (undefined ones are absent), so a builder
 * may branch on whether a parameter is present but must use each value only as a whole query
 * parameter: during the one build it receives placeholders, not the values.
 */
export function precompile<DB, P extends Params, O>(
  build: (db: Kysely<DB>, params: P) => Compilable<O> | RawBuilder<O>,
) {
  const shapes = new Map<string, { compiled: CompiledQuery<O>; slots: (string | undefined)[] }>();
  return async (db: Kysely<DB>, params: P): Promise<O[]> => {
    const names = Object.keys(params).filter((name) => params[name] !== undefined);
    const shape = names.join(',');
    let entry = shapes.get(shape);
    if (!entry) {
      const placeholder = (name: string) => `\u0000precompiled:${name}\u0000`;
      const built = build(db, Object.fromEntries(names.map((n) => [n, placeholder(n)])) as P);
      const compiled = 'isRawBuilder' in built ? built.compile(db) : built.compile();
      const byPlaceholder = new Map(names.map((n) => [placeholder(n), n]));
      entry = {
        compiled,
        slots: compiled.parameters.map((v) => (typeof v === 'string' ? byPlaceholder.get(v) : undefined)),
      };
      if (shapes.size < 500) shapes.set(shape, entry);
    }
    const { compiled, slots } = entry;
    const parameters = compiled.parameters.map((v, i) => (slots[i] === undefined ? v : params[slots[i]!]));
    const result = await db.executeQuery<O>({ ...compiled, parameters });
    return result.rows;
  };
}
