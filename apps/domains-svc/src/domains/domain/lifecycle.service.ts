import {
  domainDeactivatedEvent,
  domainDeletedEvent,
  type EventMessage,
  type InviteDomainBody,
} from '@platform/contracts';
import { inTransaction, sql } from '@platform/db';
import { notFound } from '@platform/http';
import { deleteCompanyIfUnused } from '../db/companies.repository';
import { findDomainForUpdate } from '../db/domain-reads.repository';
import { deleteDomain as deleteDomainRow, updateDomain } from '../db/domain-writes.repository';
import { enqueueMail } from '@platform/mail';
import { deleteProperty } from '../db/properties.repository';
import { domainEntityData, writeDomainEvents } from '../events/domain-events.writer';
import type { DomainsContext } from '../../context';
import { isActiveStatus, nextStatus, type PartnerMove } from '../../status';
import { assertDomainId } from './domain-rules';
import { ownerMailsOf } from '../mail/owner-mail';
import type { DomainsDatabase, DomainsDb } from '../../db/tables';

/** Locks the partner's domain, checks the move (status.ts) and stores the new status. */
async function transition(trx: DomainsDatabase, partnerId: string, domainId: string, name: PartnerMove) {
  const domain = await findDomainForUpdate(trx, partnerId, domainId);
  if (!domain) throw notFound('domain');
  const status = nextStatus(domain.status, name);
  const saved = await updateDomain(trx, partnerId, domain.id, {
    status,
    is_active: isActiveStatus(status),
    // The first invitation's time stays (the Dashboard's funnel counts a domain once).
    ...(status === 'INVITED' ? { invited_at: sql<Date>`COALESCE(invited_at, now())` } : {}),
  });
  return { ...domain, ...saved };
}

/** A domain linked to merchants has its events handed to merchants-svc once trx commits (before the answer), so its merchant shows the change at once. */
export async function pushMerchantLinks(
  ctx: Pick<DomainsContext, 'merchants'>,
  trx: DomainsDatabase,
  domain: { merchants: string[] },
  messages: EventMessage[],
) {
  if (domain.merchants.length > 0) await ctx.merchants.pushOnCommit(trx, messages);
}

export async function deactivateDomain(ctx: DomainsContext, partnerId: string, domainId: string) {
  const id = assertDomainId(domainId);
  await inTransaction(ctx.db, async (trx) => {
    const domain = await transition(trx, partnerId, id, 'deactivate');
    const events = [domainDeactivatedEvent(domainEntityData(domain, ctx.settings))];
    const messages = await writeDomainEvents(trx, partnerId, id, events, { kind: 'deactivated' });
    await pushMerchantLinks(ctx, trx, domain, messages);
  });
}

export async function activateDomain(ctx: DomainsContext, partnerId: string, domainId: string) {
  const id = assertDomainId(domainId);
  await inTransaction(ctx.db, async (trx) => {
    const domain = await transition(trx, partnerId, id, 'activate');
    await pushMerchantLinks(ctx, trx, domain, await writeDomainEvents(trx, partnerId, id, [], { kind: 'activated' }));
  });
}

/** INVITED + the invitation to the owner; the intro e-mail too when asked. */
export async function inviteDomain(ctx: DomainsContext, partnerId: string, domainId: string, body: InviteDomainBody) {
  const id = assertDomainId(domainId);
  await inTransaction(ctx.db, async (trx) => {
    const { domain, messages } = await inviteInTransaction(ctx, trx, partnerId, id, body);
    await pushMerchantLinks(ctx, trx, domain, messages);
  });
}

/**
 * The invite operation in the caller's transaction: status INVITED, the invitation (and the intro
 * when asked) queued, domain.changed written. A SCAN_INVITE scan continues with it once it ends.
 */
export async function inviteInTransaction(
  ctx: Pick<DomainsContext, 'settings'>,
  trx: DomainsDatabase,
  partnerId: string,
  id: string,
  body: InviteDomainBody,
) {
  const domain = await transition(trx, partnerId, id, 'invite');
  await enqueueMail<DomainsDb>(
    trx,
    await ownerMailsOf(trx, ctx.settings, partnerId, id, [
      { kind: 'INVITATION', queueKind: 'invite' },
      ...(body.send_intro ? [{ kind: 'INTRO' as const, queueKind: 'intro' }] : []),
    ]),
  );
  return { domain, messages: await writeDomainEvents(trx, partnerId, id, [], { kind: 'invited' }) };
}

/** Removes the domain, its subdomains and property (and the company when no other domain uses it). */
export async function deleteDomain(ctx: DomainsContext, partnerId: string, domainId: string) {
  const id = assertDomainId(domainId);
  await inTransaction(ctx.db, async (trx) => {
    const domain = await findDomainForUpdate(trx, partnerId, id);
    if (!domain) throw notFound('domain');
    await deleteDomainRow(trx, partnerId, id);
    await deleteProperty(trx, partnerId, domain.property_id);
    await deleteCompanyIfUnused(trx, partnerId, domain.company_id);
    const messages = await writeDomainEvents(trx, partnerId, id, [
      domainDeletedEvent({
        id,
        domain: domain.hostname,
        property_id: domain.property_id,
        company_id: domain.company_id,
        subscriptions: [domain.subscription_id],
      }),
    ]);
    await pushMerchantLinks(ctx, trx, domain, messages);
  });
}
