import { sql, type Kysely, type Transaction } from 'kysely';
import { inTransaction } from '@platform/db';
import { extractTrace, injectTrace, inSpan, SpanKind, type Logger, type Tracer } from '@platform/observability';
import type { Publisher } from './publisher';

interface OutboxRow {
  id: string;
  routing_key: string;
  message: unknown;
  headers: Record<string, unknown> | null;
  traceparent: string | null;
  created_at: Date;
}

export interface BatchResult {
  claimed: number;
  failed: number;
}

/** A batch whose publishes are under way: how many rows it claimed, and `done`, which settles after the confirms and the commit. */
export interface ClaimedBatch {
  claimed: number;
  done: Promise<BatchResult>;
}

export interface RelayBatchOptions {
  db: Kysely<unknown>;
  schema: string;
  exchange: string;
  batchSize: number;
  publisher: Publisher;
  log: Logger;
  /** Each publish in a producer span under the row's stored trace context; none when tracing is off. */
  tracer?: Tracer;
}

/**
 * Claims a batch and publishes it; resolves once its publishes are on the channel. The next batch
 * may be claimed before `done`: this one's rows stay locked until its commit, so SKIP LOCKED
 * passes them, and its messages are on the channel ahead of the next batch's.
 *
 * The transaction runs in inTransaction, so a deadlock or serialization failure runs it again:
 * the rerun may publish a row a second time, which consumers absorb (they dedupe by message id),
 * as they do after a crash before the commit.
 */
export function startBatch(o: RelayBatchOptions): Promise<ClaimedBatch> {
  return new Promise((resolveClaimed, rejectClaimed) => {
    let signalled = false;
    const signal = (claimed: number) => {
      signalled = true;
      resolveClaimed({ claimed, done });
    };
    const done: Promise<BatchResult> = inTransaction(o.db, async (trx) => {
      const rows = await claimRows(trx, o);
      if (rows.length === 0) {
        signal(0);
        return { claimed: 0, failed: 0 };
      }
      // In parallel: confirms arrive in bulk, so a batch costs about one round trip.
      const publishing = rows.map((row) => publishRow(o, row));
      signal(rows.length);
      return unmarkUnpublished(trx, o, rows, await Promise.allSettled(publishing));
    });
    done.catch((err: unknown) => {
      if (!signalled) rejectClaimed(err);
    });
  });
}

/**
 * Publishes a row in a producer span, a child of the trace context stored with it (a root when
 * none was), whose traceparent the message's headers carry for the consumers. With tracing off
 * the stored traceparent goes on as it is.
 */
function publishRow(o: RelayBatchOptions, row: OutboxRow): Promise<void> {
  const stored = row.traceparent ? { traceparent: row.traceparent } : {};
  const publish = (headers: Record<string, unknown>) =>
    o.publisher.publish(o.exchange, row.routing_key, Buffer.from(JSON.stringify(row.message)), {
      messageId: row.id,
      headers,
    });
  if (!o.tracer) return publish({ ...row.headers, ...stored });
  const span = {
    name: `${row.routing_key} publish`,
    kind: SpanKind.PRODUCER,
    parent: extractTrace(stored),
    attributes: {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'send',
      'messaging.destination.name': o.exchange,
      'messaging.rabbitmq.destination.routing_key': row.routing_key,
      'messaging.message.id': row.id,
    },
  };
  return inSpan(o.tracer, span, () => {
    const headers: Record<string, unknown> = { ...row.headers };
    injectTrace(headers);
    return publish(headers);
  });
}

/**
 * Claims and marks up to batchSize pending rows in one statement, oldest first (the row locks
 * hold until commit); rows whose publish fails are unmarked before the commit, and a crash rolls
 * the marks back.
 */
async function claimRows(trx: Transaction<unknown>, o: RelayBatchOptions): Promise<OutboxRow[]> {
  const table = sql.id(o.schema, 'outbox');
  const { rows } = await sql<OutboxRow>`
    UPDATE ${table} SET published_at = clock_timestamp()
    WHERE id IN (SELECT id FROM ${table} WHERE published_at IS NULL ORDER BY created_at LIMIT ${o.batchSize} FOR UPDATE SKIP LOCKED)
    RETURNING id, routing_key, message, headers, traceparent, created_at`.execute(trx);
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

/** Unmarks the rows whose publish failed, so they stay pending; answers the batch's counts. */
async function unmarkUnpublished(
  trx: Transaction<unknown>,
  o: RelayBatchOptions,
  rows: OutboxRow[],
  results: PromiseSettledResult<void>[],
): Promise<BatchResult> {
  const { ids, reasons } = unpublished(rows, results);
  if (ids.length) {
    await sql`UPDATE ${sql.id(o.schema, 'outbox')} SET published_at = NULL WHERE id = ANY(${ids}::uuid[])`.execute(trx);
    o.log.warn(
      { failed: reasons.length, published: rows.length - reasons.length, reason: reasons[0] },
      'outbox rows not published; will retry',
    );
  } else o.log.debug({ published: rows.length }, 'outbox rows published');
  return { claimed: rows.length, failed: reasons.length };
}

/** The ids of the rows whose publish was rejected, and why, in row order. */
export function unpublished(
  rows: { id: string }[],
  results: PromiseSettledResult<unknown>[],
): { ids: string[]; reasons: string[] } {
  const ids = rows.filter((_, i) => results[i].status === 'rejected').map((r) => r.id);
  const reasons = results.flatMap((r) =>
    r.status === 'rejected' ? [String((r.reason as Error)?.message ?? r.reason)] : [],
  );
  return { ids, reasons };
}
