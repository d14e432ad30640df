import type { DomainState } from '@platform/contracts';
import type { Transaction } from '@platform/db';
import { applyAllIfNewer, applyIfNewer } from '@platform/messaging';
import { deleteLinksOfDomain, deleteLinksOfDomains, upsertLinks } from '../db/domain-links.repository';
import { ensureRegisteredMerchants } from '../db/merchants.repository';
import { SCHEMA, type MerchantsDb } from '../db/tables';

/** The projection's name in projection_versions: one version per domain. */
const PROJECTION = 'domain';

/** Where a domain event stands: whose domain, its version, and when it happened. */
interface DomainEventMeta {
  partnerId: string;
  version: number;
  occurredAt: string;
}

/**
 * Domains' states after changes (domain.changed), each applied only when newer than what the
 * projection has: every merchant_id a domain names exists and is registered and links to it with
 * the domain's current state; links to merchant_ids it no longer names go. Domains that name no
 * merchant (most) cost nothing per domain: two statements for the lot.
 */
export async function applyDomainStates(trx: Transaction<MerchantsDb>, changes: { event: DomainEventMeta; domain: DomainState }[]) {
  const newer = await applyAllIfNewer(trx, SCHEMA, PROJECTION, changes.map((c) => ({ aggregateId: c.domain.id, version: c.event.version })));
  // The newest state of each domain that was newer.
  const latest = new Map<string, { event: DomainEventMeta; domain: DomainState }>();
  for (const c of changes) if (newer.has(c.domain.id) && c.event.version >= (latest.get(c.domain.id)?.event.version ?? 0)) latest.set(c.domain.id, c);
  const applied = [...latest.values()].map(({ event, domain }) => ({
    event,
    domain,
    // Sorted: concurrent events naming the same merchants take their row locks in one order (no deadlock).
    merchantIds: [...new Set(domain.merchants)].sort(),
  }));
  for (const { event, domain, merchantIds } of applied) {
    if (merchantIds.length === 0) continue;
    await ensureRegisteredMerchants(trx, event.partnerId, merchantIds, event.occurredAt);
    await upsertLinks(
      trx,
      {
        domainId: domain.id,
        partnerId: event.partnerId,
        hostname: domain.hostname,
        status: domain.status,
        isActive: domain.is_active,
        email: domain.owner_email,
        source: domain.source,
        domainCreatedAt: domain.created_at,
      },
      merchantIds,
      event.occurredAt,
    );
  }
  await deleteLinksOfDomains(trx, applied.map(({ event, domain, merchantIds }) => ({ partnerId: event.partnerId, domainId: domain.id, keep: merchantIds })));
}

/** A deleted domain (domain.deleted) names no merchant any more; an older domain.changed arriving later is ignored. */
export async function applyDomainDeleted(trx: Transaction<MerchantsDb>, event: DomainEventMeta, domainId: string) {
  if (!(await applyIfNewer(trx, SCHEMA, PROJECTION, domainId, event.version))) return;
  await deleteLinksOfDomain(trx, event.partnerId, domainId);
}
