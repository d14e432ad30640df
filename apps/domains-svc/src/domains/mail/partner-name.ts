import type { InternalCaller } from '@platform/auth';
import type { Kysely } from '@platform/db';
import type { DomainsDb } from '../../db/tables';
import { savePartnerName } from '../db/email-templates.repository';

/** What this process last stored per database and partner, so an unchanged name costs no write for a while. */
const stored = new WeakMap<Kysely<DomainsDb>, Map<string, { name: string; until: number }>>();
// Another process may have stored another name since (a rename and back): written again after this.
const KEEP_MS = 5 * 60_000;

/**
 * Keeps the partner's name the gateway sent in the token (partner_name of owner e-mails), for the
 * e-mails the scanner and the reminder job send without a caller. Called by the requests that
 * lead to owner e-mails and by the template routes.
 */
export async function rememberPartnerName(db: Kysely<DomainsDb>, caller: InternalCaller) {
  if (caller.partnerName === undefined) return;
  let names = stored.get(db);
  if (!names) stored.set(db, (names = new Map()));
  const known = names.get(caller.partnerId);
  if (known && known.name === caller.partnerName && known.until > Date.now()) return;
  await savePartnerName(db, caller.partnerId, caller.partnerName);
  if (names.size >= 10_000) names.clear();
  names.set(caller.partnerId, { name: caller.partnerName, until: Date.now() + KEEP_MS });
}
