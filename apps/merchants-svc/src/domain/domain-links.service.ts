import type { DomainState } from '@platform/contracts';
import type { Transaction } from '@platform/db';
import { applyIfNewer, newestIfNewer } from '@platform/messaging';
import {
  deleteLinksOfDomains,
  findLinkRequestedAs,
  forgetClearedLinksOfDomain,
  upsertLinks,
  wasCleared,
  type LinkTarget,
} from '../db/domain-links.repository';
import { ensureMerchant, markRegistered, merchantExists } from '../db/merchants.repository';
import { SCHEMA, type MerchantsDb } from '../db/tables';
import { writeMerchantsChanged } from '../events/merchant-events.writer';

/** The projection's name in projection_versions: one version per domain. */
const PROJECTION = 'domain';

/** Where a domain event stands: whose domain, its version, and when it happened. */
interface DomainEventMeta {
  partnerId: string;
  version: number;
  occurredAt: string;
}

/** The domain's links as its state names them (an older release's state names merchant_ids only). */
const linksNamed = (domain: DomainState) =>
  domain.merchant_links ?? domain.merchants.map((merchantId) => ({ merchant_id: merchantId, id: null }));

/**
 * The merchant a link of the domain goes to. A link with the merchant's id goes to it while it
 * exists. One domains-svc has not resolved yet (id null) goes where it went the first time; the
 * first time, to the partner's merchant with that merchant_id, made when there is none, unless a
 * merchant's delete cleared that link (a later state of the domain must not bring it back).
 */
async function targetOf(
  trx: Transaction<MerchantsDb>,
  event: DomainEventMeta,
  domainId: string,
  link: { merchant_id: string; id: string | null },
): Promise<LinkTarget | undefined> {
  if (link.id !== null)
    return (await merchantExists(trx, event.partnerId, link.id))
      ? { merchantRef: link.id, requestedAs: link.merchant_id }
      : undefined;
  const earlier = await findLinkRequestedAs(trx, domainId, link.merchant_id);
  if (earlier !== undefined) return { merchantRef: earlier, requestedAs: link.merchant_id };
  if (await wasCleared(trx, domainId, link.merchant_id)) return undefined;
  return {
    merchantRef: await ensureMerchant(trx, event.partnerId, link.merchant_id, event.occurredAt),
    requestedAs: link.merchant_id,
  };
}

/**
 * Domains' states after changes (domain.changed), each applied only when newer than what the
 * projection has: the domain links to each merchant it names (see targetOf) with its current
 * state, and its other links go. Each merchant that gained or lost a link gets merchant.changed,
 * so domains-svc learns the merchant's id. Domains that name no merchant (most) cost nothing per
 * domain: two statements for the lot.
 */
export async function applyDomainStates(
  trx: Transaction<MerchantsDb>,
  changes: { event: DomainEventMeta; domain: DomainState }[],
) {
  // The newest state of each domain that was newer.
  const latest = await newestIfNewer(trx, SCHEMA, PROJECTION, changes, (c) => ({
    aggregateId: c.domain.id,
    version: c.event.version,
  }));
  const touched: string[] = [];
  const kept: { partnerId: string; domainId: string; keep: string[] }[] = [];
  for (const { event, domain } of latest) {
    // Sorted: concurrent events naming the same merchants take their row locks in one order (no deadlock).
    const named = linksNamed(domain).sort((a, b) => a.merchant_id.localeCompare(b.merchant_id));
    const targets: LinkTarget[] = [];
    for (const link of named) {
      const target = await targetOf(trx, event, domain.id, link);
      if (target && !targets.some((t) => t.merchantRef === target.merchantRef)) targets.push(target);
    }
    kept.push({ partnerId: event.partnerId, domainId: domain.id, keep: targets.map((t) => t.merchantRef) });
    if (targets.length === 0) continue;
    const linkState = {
      domainId: domain.id,
      partnerId: event.partnerId,
      hostname: domain.hostname,
      status: domain.status,
      isActive: domain.is_active,
      email: domain.owner_email,
      source: domain.source,
      domainCreatedAt: domain.created_at,
    };
    const linked = await upsertLinks(trx, linkState, targets, event.occurredAt);
    await markRegistered(trx, linked, event.occurredAt);
    touched.push(...linked);
  }
  touched.push(...(await deleteLinksOfDomains(trx, kept)));
  await writeMerchantsChanged(trx, touched);
}

/** A deleted domain (domain.deleted) is linked to no merchant any more; an older domain.changed arriving later is ignored. */
export async function applyDomainDeleted(trx: Transaction<MerchantsDb>, event: DomainEventMeta, domainId: string) {
  if (!(await applyIfNewer(trx, SCHEMA, PROJECTION, domainId, event.version))) return;
  await forgetClearedLinksOfDomain(trx, event.partnerId, domainId);
  await writeMerchantsChanged(
    trx,
    await deleteLinksOfDomains(trx, [{ partnerId: event.partnerId, domainId, keep: [] }]),
  );
}
