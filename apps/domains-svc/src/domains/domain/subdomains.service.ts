import { inTransaction } from '@platform/db';
import { randomUUID } from 'node:crypto';
import { MAX_SUBDOMAINS } from '@platform/contracts';
import { AppError, notFound } from '@platform/http';
import { findDomainForUpdate } from '../db/domain-reads.repository';
import {
  countSubdomains,
  deleteSubdomain as deleteSubdomainRow,
  insertSubdomains,
  listSubdomainsOfDomain,
} from '../db/subdomains.repository';
import { writeDomainEvents } from '../events/domain-events.writer';
import type { DomainsContext } from '../../context';
import { assertDomainId, resolveSubdomain, subdomainMatch } from './domain-rules';

export async function listSubdomains(ctx: DomainsContext, partnerId: string, domainId: string) {
  const rows = await listSubdomainsOfDomain(ctx.db, partnerId, assertDomainId(domainId));
  if (!rows) throw notFound('domain');
  return rows;
}

/** Adds a subdomain given as label or hostname; the domain row lock keeps the 100 limit exact. */
export async function createSubdomain(ctx: DomainsContext, partnerId: string, domainId: string, input: string) {
  const id = assertDomainId(domainId);
  return inTransaction(ctx.db, async (trx) => {
    const domain = await findDomainForUpdate(trx, partnerId, id);
    if (!domain) throw notFound('domain');
    const hostname = resolveSubdomain(input, domain.hostname);
    if ((await countSubdomains(trx, id)) >= MAX_SUBDOMAINS) {
      throw new AppError('SUBDOMAIN.LIMIT_REACHED', `A domain has at most ${MAX_SUBDOMAINS} subdomains.`);
    }
    const now = new Date();
    const [row] = await insertSubdomains(trx, [
      { id: randomUUID(), partner_id: partnerId, domain_id: id, hostname, created_at: now, updated_at: now },
    ]);
    await writeDomainEvents(trx, partnerId, id, [], { kind: 'subdomains' });
    return row;
  });
}

/** Deletes by id, full hostname or label; 404 when the domain or the subdomain is unknown. */
export async function deleteSubdomain(ctx: DomainsContext, partnerId: string, domainId: string, value: string) {
  const id = assertDomainId(domainId);
  return inTransaction(ctx.db, async (trx) => {
    const domain = await findDomainForUpdate(trx, partnerId, id);
    if (!domain) throw notFound('domain');
    const match = subdomainMatch(value.trim(), domain.hostname);
    const deleted = match.id || match.hostname ? await deleteSubdomainRow(trx, partnerId, id, match) : undefined;
    if (!deleted) throw notFound('subdomain');
    await writeDomainEvents(trx, partnerId, id, [], { kind: 'subdomains' });
    return deleted;
  });
}
