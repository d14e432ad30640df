import type { DomainState } from '@platform/contracts';
import type { Transaction } from '@platform/db';
import { applyIfNewer } from '@platform/messaging';
import { deleteLinksOfDomain, upsertLinks } from '../db/domain-links.repository';
import { ensureRegisteredMerchants } from '../db/merchants.repository';
import { SCHEMA, type MerchantsDb } from '../db/tables';

/** The projection's name in projection_versions: one version per domain. */
const PROJECTION = 'domain';

/** Where a domain event stands: whose domain, its version, and when it happened. */
export interface DomainEventMeta {
  partnerId: string;
  version: number;
  occurredAt: string;
}

/**
 * A domain's state after a change (domain.changed), applied only when newer than what the
 * projection has: every merchant_id it names exists and is registered and links to it with the
 * domain's current state; links to merchant_ids it no longer names go.
 */
export async function applyDomainState(trx: Transaction<MerchantsDb>, event: DomainEventMeta, domain: DomainState) {
  if (!(await applyIfNewer(trx, SCHEMA, PROJECTION, domain.id, event.version))) return;
  // Sorted: concurrent events naming the same merchants take their row locks in one order (no deadlock).
  const merchantIds = [...new Set(domain.merchants)].sort();
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
  await deleteLinksOfDomain(trx, event.partnerId, domain.id, merchantIds);
}

/** A deleted domain (domain.deleted) names no merchant any more; an older domain.changed arriving later is ignored. */
export async function applyDomainDeleted(trx: Transaction<MerchantsDb>, event: DomainEventMeta, domainId: string) {
  if (!(await applyIfNewer(trx, SCHEMA, PROJECTION, domainId, event.version))) return;
  await deleteLinksOfDomain(trx, event.partnerId, domainId);
}
