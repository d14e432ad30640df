import type { Kysely, Selectable } from 'kysely';
import type { DomainsDb, RegistrationsTable } from '../db/tables';

export type RegistrationRow = Selectable<RegistrationsTable>;

export interface NewRegistration {
  id: string;
  partnerId: string;
  tokenHash: Buffer;
  email: string;
  hostname: string;
  input: unknown;
  expiresAt: Date;
}

export async function insertRegistration(db: Kysely<DomainsDb>, r: NewRegistration): Promise<void> {
  await db
    .insertInto('registrations')
    .values({
      id: r.id,
      partner_id: r.partnerId,
      token_hash: r.tokenHash,
      email: r.email,
      hostname: r.hostname,
      input: JSON.stringify(r.input),
      expires_at: r.expiresAt,
    })
    .execute();
}

/** When the address's recent links (since `since`) were asked for, oldest first: the per-address throttle. */
export async function recentRegistrationTimes(
  db: Kysely<DomainsDb>,
  partnerId: string,
  email: string,
  since: Date,
): Promise<Date[]> {
  const rows = await db
    .selectFrom('registrations')
    .select('created_at')
    .where('partner_id', '=', partnerId)
    .where('email', '=', email)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.created_at);
}

/** The partner's registration of the token, locked until the caller's transaction ends (one confirmation at a time). */
export function findRegistrationForUpdate(
  db: Kysely<DomainsDb>,
  partnerId: string,
  tokenHash: Buffer,
): Promise<RegistrationRow | undefined> {
  return db
    .selectFrom('registrations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('partner_id', '=', partnerId)
    .forUpdate()
    .executeTakeFirst();
}

export async function markRegistrationConfirmed(
  db: Kysely<DomainsDb>,
  id: string,
  made: { domainId: string; propertyId: string; at: Date },
): Promise<void> {
  await db
    .updateTable('registrations')
    .set({ confirmed_at: made.at, domain_id: made.domainId, property_id: made.propertyId })
    .where('id', '=', id)
    .execute();
}

/** Forgets registrations a week past their link's expiry, at most 1,000 a statement; how many it removed. */
export async function pruneRegistrations(db: Kysely<DomainsDb>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - 7 * 24 * 3_600_000);
  const result = await db
    .deleteFrom('registrations')
    .where('id', 'in', (q) => q.selectFrom('registrations').select('id').where('expires_at', '<', before).limit(1_000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
