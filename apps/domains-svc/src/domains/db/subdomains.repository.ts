import type { Insertable, Kysely } from 'kysely';
import { rethrowUnique } from '@platform/db';
import type { DomainsDb, SubdomainsTable } from '../../db/tables';

const COLUMNS = ['id', 'domain_id', 'hostname', 'created_at', 'updated_at'] as const;

/** A subdomain the domain already has: 409 SUBDOMAIN.ALREADY_EXISTS; any other error as it is. */
export function rethrowSubdomainTaken(err: unknown): never {
  rethrowUnique(
    err,
    'SUBDOMAIN.ALREADY_EXISTS',
    'The subdomain already exists on this domain.',
    'subdomains_domain_hostname_key',
  );
}

export async function insertSubdomains(db: Kysely<DomainsDb>, rows: Insertable<SubdomainsTable>[]) {
  if (rows.length === 0) return [];
  try {
    return await db.insertInto('subdomains').values(rows).returning(COLUMNS).execute();
  } catch (err) {
    rethrowSubdomainTaken(err);
  }
}

/** The domain (if the partner owns it) and its subdomains in one round trip. */
export async function listSubdomainsOfDomain(db: Kysely<DomainsDb>, partnerId: string, domainId: string) {
  const rows = await db
    .selectFrom('domains as d')
    .leftJoin('subdomains as s', 's.domain_id', 'd.id')
    .select(['d.id as domain_id', 's.id', 's.hostname', 's.created_at', 's.updated_at'])
    .where('d.id', '=', domainId)
    .where('d.partner_id', '=', partnerId)
    .orderBy('s.created_at')
    .orderBy('s.hostname')
    .execute();
  if (rows.length === 0) return undefined;
  return rows.flatMap((r) =>
    r.id && r.hostname && r.created_at && r.updated_at
      ? [{ id: r.id, domain_id: r.domain_id, hostname: r.hostname, created_at: r.created_at, updated_at: r.updated_at }]
      : [],
  );
}

export async function countSubdomains(db: Kysely<DomainsDb>, domainId: string) {
  const row = await db
    .selectFrom('subdomains')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('domain_id', '=', domainId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes by id or hostname; answers the deleted hostname, or undefined when nothing matched. */
export async function deleteSubdomain(
  db: Kysely<DomainsDb>,
  partnerId: string,
  domainId: string,
  match: { id?: string; hostname?: string },
) {
  const row = await db
    .deleteFrom('subdomains')
    .where('domain_id', '=', domainId)
    .where('partner_id', '=', partnerId)
    .where((eb) => {
      const ors = [];
      if (match.id) ors.push(eb('id', '=', match.id));
      if (match.hostname) ors.push(eb('hostname', '=', match.hostname));
      return eb.or(ors);
    })
    .returning(['hostname'])
    .executeTakeFirst();
  return row?.hostname;
}
