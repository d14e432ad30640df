import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql, type Kysely, type Migration } from 'kysely';
import type { EventMessage, EventPayload } from '@platform/contracts';
import { afterCommit } from '@platform/db';
import { activeTraceparent, currentContext, REQUEST_ID_HEADER } from '@platform/observability';

/** The outbox table every publishing service has in its own schema. */
export interface OutboxTable {
  id: string;
  routing_key: string;
  message: EventMessage;
  headers: Record<string, string>;
  /** The trace context the row was written in (see outbox-trace.ts); null when tracing is off. */
  traceparent: string | null;
  created_at: Date;
  published_at: Date | null;
}

export const OUTBOX_CHANNEL_SUFFIX = '_outbox';

/**
 * This process's outbox relays listen here by schema: a transaction that wrote outbox rows wakes
 * them when it commits. Other processes' relays are woken by NOTIFY, which writers send only when
 * no relay of theirs runs here: every NOTIFY serialises its transaction's commit (WAL flush
 * included) with every other NOTIFYing commit of the cluster, which under load was the database's
 * top wait.
 */
export const outboxCommits = new EventEmitter();

/** Migration creating <schema>.outbox; include it in the service's migration list. */
export function outboxMigration(schema: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE ${sql.id(schema, 'outbox')} (
          id uuid PRIMARY KEY,
          routing_key text NOT NULL,
          message jsonb NOT NULL,
          headers jsonb NOT NULL DEFAULT '{}'::jsonb,
          created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
          published_at timestamptz
        )`.execute(db);
      await sql`CREATE INDEX ${sql.id(`${schema}_outbox_unpublished`)} ON ${sql.id(schema, 'outbox')} (created_at) WHERE published_at IS NULL`.execute(
        db,
      );
    },
  };
}

const requestIdHeader = (id: string | undefined): Record<string, string> => (id ? { [REQUEST_ID_HEADER]: id } : {});

export interface OutboxEvent {
  partnerId: string;
  /** What changed (e.g. the domain id): the event gets that aggregate's next version. */
  aggregateId: string;
  payload: EventPayload;
  requestId?: string;
}

/**
 * Writes events in the caller's transaction, so they commit (or roll back) with the change
 * they describe, each numbered with its aggregate's next version (see versions.ts). The commit
 * wakes this process's relay (see outboxCommits), or any relay by NOTIFY when none runs here;
 * relays also sweep in case a wake-up was missed.
 *
 * One round trip: the versions upsert, the insert and any NOTIFY are one statement (a
 * data-modifying CTE always runs to completion). Each round trip costs both processes a socket
 * write and a wake-up, which under load is more than the statement itself.
 */
export async function writeOutbox<DB>(
  trx: Kysely<DB>,
  schema: string,
  source: string,
  events: OutboxEvent[],
): Promise<EventMessage[]> {
  if (events.length === 0) return [];
  const now = new Date().toISOString();
  // Per aggregate: how many events it gets here, and each event's place among them (1, 2, ...).
  const counts = new Map<string, number>();
  const places = events.map((e) => {
    const place = (counts.get(e.aggregateId) ?? 0) + 1;
    counts.set(e.aggregateId, place);
    return place;
  });
  const rows = events.map((e) => ({
    message: {
      id: randomUUID(),
      partner_id: e.partnerId,
      occurred_at: now,
      source,
      aggregate_id: e.aggregateId,
      version: 0,
      payload: e.payload,
    } satisfies EventMessage,
    headers: requestIdHeader(e.requestId ?? currentContext()?.requestId),
  }));
  // Version rows are locked in one fixed order (by aggregate id), so overlapping writers wait instead of deadlocking.
  const aggregates = [...counts.keys()].sort();
  const versionsTable = sql.id(schema, 'aggregate_versions');
  const wakesLocalRelay =
    outboxCommits.listenerCount(schema) > 0 && (await afterCommit(trx, () => outboxCommits.emit(schema)));
  const notify = wakesLocalRelay ? sql`` : sql`, pg_notify(${schema + OUTBOX_CHANNEL_SUFFIX}, '')`;
  const { rows: numbered } = await sql<{ id: string; version: string }>`
    WITH counts AS (
      SELECT * FROM UNNEST(${aggregates}::text[], ${aggregates.map((a) => counts.get(a)!)}::bigint[]) AS c(aggregate_id, n)
    ), versions AS (
      -- The row lock this takes is held until commit, so versions follow commit order.
      INSERT INTO ${versionsTable} (aggregate_id, version) SELECT aggregate_id, n FROM counts
      ON CONFLICT (aggregate_id) DO UPDATE SET version = ${versionsTable}.version + EXCLUDED.version
      RETURNING aggregate_id, version
    ), inserted AS (
      INSERT INTO ${sql.id(schema, 'outbox')} (id, routing_key, message, headers, traceparent)
      SELECT e.id, e.routing_key, jsonb_set(e.message, '{version}', to_jsonb(v.version - c.n + e.place)), e.headers,
             ${activeTraceparent()}::text
      FROM UNNEST(${rows.map((r) => r.message.id)}::uuid[], ${rows.map((r) => r.message.payload.event)}::text[],
                  ${rows.map((r) => JSON.stringify(r.message))}::jsonb[], ${rows.map((r) => JSON.stringify(r.headers))}::jsonb[],
                  ${events.map((e) => e.aggregateId)}::text[], ${places}::bigint[])
           WITH ORDINALITY AS e(id, routing_key, message, headers, aggregate_id, place, ord)
      JOIN versions v USING (aggregate_id) JOIN counts c USING (aggregate_id)
      ORDER BY e.ord -- rows take their created_at (the relay's order) in the order given
      RETURNING id, message->>'version' AS version
    )
    SELECT inserted.id, inserted.version FROM inserted ${notify}`.execute(trx);
  const versionOf = new Map(numbered.map((r) => [r.id, Number(r.version)]));
  return rows.map(({ message }) => ({ ...message, version: versionOf.get(message.id)! }));
}
