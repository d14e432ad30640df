import { sql, type Kysely, type Transaction } from '@platform/db';
import { claimWithLease } from '@platform/jobs';
import type { WebhooksDb } from '../db/tables';

/** The delivery worker's SQL: fan-out, claims, results and hand-backs (the API's queries are in db/deliveries.repository.ts). */

/** A delivery a worker holds (leased): everything needed to send it without another query. */
export interface DeliveryWork {
  id: string;
  endpoint_id: string;
  url: string;
  enabled: boolean;
  /** Sealed: the current secret, and the rotated-out one while it still signs. */
  secret: string;
  previous_secret: string | null;
  body: string;
  attempt_count: number;
  final_attempt: boolean;
  /** The event's trace context, the parent of each attempt's span (null: none). */
  traceparent: string | null;
}

const interval = (ms: number) => sql`(${ms} * interval '1 millisecond')`;

/**
 * Fan-out of events in the consumer's transaction: each message (once) and one delivery per
 * enabled endpoint of its partner that wants its event, for the whole batch in one statement,
 * returned in the order of the events.
 * `leaseMs` set: the deliveries are leased to the calling worker, which sends them right after
 * commit; they are returned ready to send. Nothing is stored for an event no endpoint wants.
 */
export async function fanOut(
  trx: Transaction<WebhooksDb>,
  messages: { id: string; partnerId: string; event: string; body: string; traceparent?: string | null }[],
  leaseMs: number | undefined,
): Promise<DeliveryWork[]> {
  if (messages.length === 0) return [];
  const { rows } = await sql<DeliveryWork>`
    WITH batch AS (
      SELECT * FROM UNNEST(${messages.map((m) => m.id)}::uuid[], ${messages.map((m) => m.partnerId)}::text[],
                           ${messages.map((m) => m.event)}::text[], ${messages.map((m) => m.body)}::text[],
                           ${messages.map((m) => m.traceparent ?? null)}::text[])
           WITH ORDINALITY AS b(id, partner_id, event, body, traceparent, ord)
    ), targets AS (
      SELECT b.id AS message_id, b.ord, e.id, e.url, e.enabled, e.secret,
             CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret
      FROM batch b JOIN endpoints e ON e.partner_id = b.partner_id AND e.enabled AND (e.events IS NULL OR b.event = ANY (e.events))
    ), m AS (
      INSERT INTO messages (id, partner_id, event, body, traceparent)
      SELECT id, partner_id, event, body, traceparent FROM batch b WHERE EXISTS (SELECT 1 FROM targets t WHERE t.message_id = b.id)
      ON CONFLICT (id) DO NOTHING
      RETURNING id, partner_id, event, body, traceparent
    ), d AS (
      INSERT INTO deliveries (id, message_id, endpoint_id, partner_id, event, status, next_attempt_at, lease_until)
      SELECT gen_random_uuid(), m.id, t.id, m.partner_id, m.event, 'pending', now(),
             CASE WHEN ${leaseMs ?? null}::integer IS NULL THEN NULL ELSE now() + ${interval(leaseMs ?? 0)} END
      FROM m JOIN targets t ON t.message_id = m.id
      ON CONFLICT (message_id, endpoint_id) DO NOTHING
      RETURNING id, message_id, endpoint_id, attempt_count, final_attempt
    )
    SELECT d.id, d.endpoint_id, t.url, t.enabled, t.secret, t.previous_secret, m.body, d.attempt_count, d.final_attempt,
           m.traceparent
    FROM d JOIN targets t ON t.message_id = d.message_id AND t.id = d.endpoint_id JOIN m ON m.id = d.message_id
    ORDER BY t.ord -- sent in the order the events came`.execute(trx);
  return rows;
}

/** First attempts and retries are claimed apart, so a backlog of retries never holds up fresh events. */
export type Lane = 'first' | 'retry';

/**
 * Claims up to `limit` due deliveries of a lane for this worker, leased for `leaseMs` by the
 * database's clock (SKIP LOCKED: workers never wait for or take each other's rows), each with
 * everything needed to send it: one statement.
 */
export function claimDueDeliveries(
  db: Kysely<WebhooksDb>,
  lane: Lane,
  limit: number,
  leaseMs: number,
): Promise<DeliveryWork[]> {
  return claimWithLease<DeliveryWork>(db, {
    table: 'deliveries',
    dueColumn: 'next_attempt_at',
    leaseColumn: 'lease_until',
    leaseMs,
    limit,
    // The predicate of the partial index deliveries_due, then the lane.
    where: sql`status = 'pending' AND (attempt_count = 0) = ${lane === 'first'}`,
    select: sql`
      SELECT c.id, c.endpoint_id, e.url, e.enabled, e.secret,
             CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret,
             m.body, c.attempt_count, c.final_attempt, m.traceparent
      FROM claimed c JOIN endpoints e ON e.id = c.endpoint_id JOIN messages m ON m.id = c.message_id
      ORDER BY c.next_attempt_at -- started in the order they fell due`,
  });
}

/** How one attempt ended, and what becomes of its delivery. */
export interface AttemptResult {
  deliveryId: string;
  endpointId: string;
  attemptedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  errorMessage: string | null;
  responseBody: string | null;
  responseTruncated: boolean;
  ok: boolean;
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date | null;
  /** The endpoint said it is gone: it is disabled now. */
  disableEndpoint: boolean;
}

/**
 * Records a batch of attempts in one statement: the attempts, their deliveries' new state (lease
 * released) and their endpoints' health (last success, failing since, disabled when one is gone).
 */
export async function recordAttempts(db: Kysely<WebhooksDb>, results: AttemptResult[]): Promise<void> {
  if (results.length === 0) return;
  const col = <T>(pick: (r: AttemptResult) => T) => results.map(pick);
  await sql`
    WITH r AS (
      SELECT * FROM unnest(
        ${col((r) => r.deliveryId)}::uuid[], ${col((r) => r.endpointId)}::uuid[], ${col((r) => r.attemptedAt.toISOString())}::timestamptz[],
        ${col((r) => Math.round(r.durationMs))}::integer[], ${col((r) => r.statusCode)}::integer[], ${col((r) => r.error)}::text[],
        ${col((r) => r.errorMessage)}::text[], ${col((r) => r.responseBody)}::text[], ${col((r) => r.responseTruncated)}::boolean[],
        ${col((r) => r.ok)}::boolean[], ${col((r) => r.status)}::text[], ${col((r) => r.nextAttemptAt?.toISOString() ?? null)}::timestamptz[],
        ${col((r) => r.disableEndpoint)}::boolean[]
      ) AS r(delivery_id, endpoint_id, attempted_at, duration_ms, status_code, error, error_message, response_body, response_truncated, ok, status, next_attempt_at,
             disable_endpoint)
    ), attempts_added AS (
      INSERT INTO attempts (delivery_id, endpoint_id, attempted_at, duration_ms, status_code, error, error_message, response_body, response_truncated)
      SELECT delivery_id, endpoint_id, attempted_at, duration_ms, status_code, error, error_message, response_body, response_truncated FROM r
    ), deliveries_updated AS (
      UPDATE deliveries d
      SET status = r.status, attempt_count = d.attempt_count + 1, next_attempt_at = r.next_attempt_at, lease_until = NULL, updated_at = now()
      FROM r WHERE d.id = r.delivery_id
    ), health AS (
      SELECT endpoint_id, bool_or(ok) AS any_ok, max(attempted_at) FILTER (WHERE ok) AS last_ok,
             min(attempted_at) FILTER (WHERE NOT ok) AS first_failure, bool_or(disable_endpoint) AS gone
      FROM r GROUP BY endpoint_id
    )
    UPDATE endpoints e
    SET last_success_at = CASE WHEN h.any_ok THEN h.last_ok ELSE e.last_success_at END,
        failing_since = CASE WHEN h.any_ok THEN NULL ELSE coalesce(e.failing_since, h.first_failure) END,
        enabled = e.enabled AND NOT h.gone,
        disabled_reason = CASE WHEN h.gone AND e.enabled THEN 'gone' ELSE e.disabled_reason END,
        updated_at = CASE WHEN h.gone AND e.enabled THEN now() ELSE e.updated_at END
    FROM health h
    WHERE e.id = h.endpoint_id
      -- Busy endpoints: touch the row only when its health changes, or every 10 s.
      AND (h.gone OR NOT h.any_ok AND e.failing_since IS NULL OR h.any_ok AND (e.failing_since IS NOT NULL OR e.last_success_at IS NULL OR e.last_success_at < h.last_ok - interval '10 seconds'))`.execute(
    db,
  );
}

/** Hands deliveries back unattempted (breaker open, endpoint busy, worker stopping): due again at `at`. */
export async function releaseDeliveries(db: Kysely<WebhooksDb>, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('deliveries')
    .set({ lease_until: null, next_attempt_at: at, updated_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
}

/** Deliveries of an endpoint that was disabled meanwhile: failed, unattempted (a recovery sends them later). */
export async function failDeliveries(db: Kysely<WebhooksDb>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('deliveries')
    .set({ status: 'failed', lease_until: null, next_attempt_at: null, updated_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
}
