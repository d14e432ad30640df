import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import type { EventMessage, EventPayload } from '@platform/contracts';
import { currentContext, REQUEST_ID_HEADER } from '@platform/observability';
import { nextVersions } from './versions';

/** The outbox table every publishing service has in its own schema. */
export interface OutboxTable {
  id: string;
  routing_key: string;
  message: EventMessage;
  headers: Record<string, string>;
  created_at: Date;
  published_at: Date | null;
}

export const OUTBOX_CHANNEL_SUFFIX = '_outbox';

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
      await sql`CREATE INDEX ${sql.id(`${schema}_outbox_unpublished`)} ON ${sql.id(schema, 'outbox')} (created_at) WHERE published_at IS NULL`.execute(db);
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
 * they describe, each numbered with its aggregate's next version (see versions.ts). NOTIFY wakes the relay at commit; the relay also polls in case it missed it.
 */
export async function writeOutbox<DB>(trx: Kysely<DB>, schema: string, source: string, events: OutboxEvent[]): Promise<EventMessage[]> {
  if (events.length === 0) return [];
  const now = new Date().toISOString();
  const versions = await nextVersions(trx, schema, events.map((e) => e.aggregateId));
  const messages = events.map((e, i) => ({
    message: {
      id: randomUUID(),
      partner_id: e.partnerId,
      occurred_at: now,
      source,
      aggregate_id: e.aggregateId,
      version: versions[i],
      payload: e.payload,
    } satisfies EventMessage,
    headers: requestIdHeader(e.requestId ?? currentContext()?.requestId),
  }));
  // One round trip: a data-modifying CTE always runs to completion, and NOTIFY is delivered at commit.
  await sql`
    WITH inserted AS (
      INSERT INTO ${sql.id(schema, 'outbox')} (id, routing_key, message, headers)
      SELECT * FROM UNNEST(${messages.map((m) => m.message.id)}::uuid[], ${messages.map((m) => m.message.payload.event)}::text[],
                           ${messages.map((m) => JSON.stringify(m.message))}::jsonb[], ${messages.map((m) => JSON.stringify(m.headers))}::jsonb[])
    )
    SELECT pg_notify(${schema + OUTBOX_CHANNEL_SUFFIX}, '')`.execute(trx);
  return messages.map((m) => m.message);
}
