import { sql, type RawBuilder } from 'kysely';
import type { SqlExecutor } from './runner';

export interface ClaimOptions {
  table: string;
  /** Defaults to the connection's search_path (the service's schema). */
  schema?: string;
  /** Primary key column (default `id`). */
  idColumn?: string;
  /** When the row is due (`<dueColumn> <= now`); due rows are claimed in this order. */
  dueColumn: string;
  /**
   * Where the lease is kept. Default: the due column itself, which the claim moves to now + lease
   * (a row never finished is due again when its lease ends). A column of its own (e.g.
   * `lease_until`) keeps the due time as it is: a due row is free while that column is null or past.
   */
  leaseColumn?: string;
  /** The caller's clock (a job runner's); default the database's now(). */
  now?: Date;
  leaseMs: number;
  limit: number;
  /** More conditions a due row must meet, e.g. sql`sent_at IS NULL` (a partial index's predicate, a lane). */
  where?: RawBuilder<unknown>;
  /** The order due rows are claimed in (default: the due column), e.g. a fair share between owners. */
  orderBy?: RawBuilder<unknown>;
  /** More assignments made by the claim, e.g. sql`attempts = attempts + 1`. */
  set?: RawBuilder<unknown>;
  /**
   * What the statement returns: a query over the claimed rows, which it names `claimed` (e.g.
   * joined with the rows they refer to, in the same statement). Default: the claimed rows as updated.
   */
  select?: RawBuilder<unknown>;
}

/**
 * Claims up to `limit` due rows of a table for `leaseMs`, in one statement: the due rows are
 * locked with FOR UPDATE SKIP LOCKED (claimers never wait for or take each other's rows) and
 * leased, so other claimers skip them and a claim that is never finished is free again when the
 * lease ends. The row lock lasts only for this statement; keep each row's work well under the
 * lease, or claim fewer rows at a time.
 */
export async function claimWithLease<Row>(db: SqlExecutor, options: ClaimOptions): Promise<Row[]> {
  const table = options.schema ? sql.id(options.schema, options.table) : sql.id(options.table);
  const id = sql.ref(options.idColumn ?? 'id');
  const due = sql.ref(options.dueColumn);
  const ownLease = options.leaseColumn !== undefined && options.leaseColumn !== options.dueColumn;
  const lease = ownLease ? sql.ref(options.leaseColumn!) : due;
  const now = options.now ? sql`${options.now}` : sql`now()`;
  const leaseUntil = options.now
    ? sql`${new Date(options.now.getTime() + options.leaseMs)}`
    : sql`now() + (${options.leaseMs} * interval '1 millisecond')`;
  const { rows } = await sql<Row>`
    WITH claim_due AS (
      SELECT ${id} FROM ${table}
      WHERE ${due} <= ${now} ${ownLease ? sql`AND (${lease} IS NULL OR ${lease} < ${now})` : sql``} ${options.where ? sql`AND ${options.where}` : sql``}
      ORDER BY ${options.orderBy ?? due} LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE ${table} SET ${lease} = ${leaseUntil} ${options.set ? sql`, ${options.set}` : sql``}
      FROM claim_due WHERE ${table}.${id} = claim_due.${id}
      RETURNING ${table}.*
    )
    ${options.select ?? sql`SELECT * FROM claimed`}`.execute(db);
  return rows;
}
