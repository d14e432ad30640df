import { sql, type Kysely } from '@platform/db';
import { AppError } from '@platform/http';
import type { ConsentDb } from '../db/tables';

/** Requests taken per hour: from one client address, for one property, to one requester address on a property. */
export interface DsarLimits {
  perClientPerHour: number;
  perPropertyPerHour: number;
  perAddressPerHour: number;
}

const WINDOW_MS = 3_600_000;

/**
 * Refuses a request past any hourly limit with 429 RATE.LIMITED and Retry-After (when the oldest
 * request in the window leaves it). The per-address limit bounds the confirmation e-mails one
 * mailbox can be sent through the form. Transaction-scoped locks on the property (then the
 * client) first, so concurrent requests count each other and a burst cannot slip past.
 */
export async function assertWithinLimits(
  trx: Kysely<ConsentDb>,
  limits: DsarLimits,
  r: { propertyId: string; clientHash: Buffer | null; email: string },
  now: Date,
) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`dsar-intake:${r.propertyId}`}, 0))`.execute(trx);
  const since = new Date(now.getTime() - WINDOW_MS);
  const client = r.clientHash
    ? sql`UNION ALL SELECT 'client', ${limits.perClientPerHour}::int, count(*)::int, min(created_at) FROM data_requests
          WHERE client_hash = ${r.clientHash} AND created_at > ${since}`
    : sql``;
  if (r.clientHash)
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`dsar-client:${r.clientHash.toString('hex')}`}, 0))`.execute(
      trx,
    );
  const { rows } = await sql<{ what: string; max: number; n: number; oldest: Date | null }>`
    SELECT 'property' AS what, ${limits.perPropertyPerHour}::int AS max, count(*)::int AS n, min(created_at) AS oldest
      FROM data_requests WHERE property_id = ${r.propertyId} AND created_at > ${since}
    UNION ALL SELECT 'address', ${limits.perAddressPerHour}::int, count(*)::int, min(created_at) FROM data_requests
      WHERE property_id = ${r.propertyId} AND lower(email) = lower(${r.email}) AND created_at > ${since}
    ${client}`.execute(trx);
  const over = rows.filter((row) => row.n >= row.max);
  if (over.length === 0) return;
  const freeAt = Math.max(...over.map((row) => (row.oldest ? row.oldest.getTime() + WINDOW_MS : now.getTime())));
  const seconds = Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
  throw new AppError(
    'RATE.LIMITED',
    'Too many requests were sent; try again later.',
    { retry_after: seconds },
    { 'Retry-After': String(seconds) },
  );
}
