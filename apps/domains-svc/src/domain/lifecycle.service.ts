import { domainDeactivatedEvent, domainDeletedEvent, type InviteDomainBody } from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { notFound } from '@platform/http';
import { deleteCompanyIfUnused } from '../db/companies.repository';
import { deleteDomain as deleteDomainRow, findDomainForUpdate, updateDomain } from '../db/domains.repository';
import { enqueueMail } from '../db/mail-queue.repository';
import { deleteProperty } from '../db/properties.repository';
import { domainEntityData, writeDomainEvents } from '../events/domain-events.writer';
import type { DomainsContext } from './context';
import { assertDomainId, isActiveStatus, nextStatus, type Transition } from './domain-rules';
import { introMail, inviteMail } from './mail-templates';
import { widgetScript } from './widget';
import type { DomainsDatabase } from '../db/tables';

/** Locks the partner's domain, checks the transition and stores the new status. */
async function transition(trx: DomainsDatabase, partnerId: string, domainId: string, name: Transition) {
  const domain = await findDomainForUpdate(trx, partnerId, domainId);
  if (!domain) throw notFound('domain');
  const status = nextStatus(domain.status, name);
  const saved = await updateDomain(trx, partnerId, domain.id, { status, is_active: isActiveStatus(status) });
  return { ...domain, ...saved };
}

export async function deactivateDomain(ctx: DomainsContext, partnerId: string, domainId: string) {
  const id = assertDomainId(domainId);
  await ctx.db.transaction().execute(async (trx) => {
    const domain = await transition(trx, partnerId, id, 'deactivate');
    await writeDomainEvents(trx, partnerId, id, [domainDeactivatedEvent(domainEntityData(domain, ctx.settings))], { kind: 'deactivated' });
  });
}

export async function activateDomain(ctx: DomainsContext, partnerId: string, domainId: string) {
  const id = assertDomainId(domainId);
  await ctx.db.transaction().execute(async (trx) => {
    await transition(trx, partnerId, id, 'activate');
    await writeDomainEvents(trx, partnerId, id, [], { kind: 'activated' });
  });
}

/** INVITED + the invitation to the owner; the intro e-mail too when asked. */
export async function inviteDomain(ctx: DomainsContext, partnerId: string, domainId: string, body: InviteDomainBody) {
  const id = assertDomainId(domainId);
  await ctx.db.transaction().execute(async (trx) => {
    const domain = await transition(trx, partnerId, id, 'invite');
    const input = {
      partnerId,
      to: domain.owner_email,
      hostname: domain.hostname,
      widgetSnippet: widgetScript(ctx.settings.widgetBaseUrl, domain.property_id),
    };
    await enqueueMail(trx, [inviteMail(input), ...(body.send_intro ? [introMail(input)] : [])]);
    await writeDomainEvents(trx, partnerId, id, [], { kind: 'invited' });
  });
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
    await writeDomainEvents(trx, partnerId, id, [
      domainDeletedEvent({
        id,
        domain: domain.hostname,
        property_id: domain.property_id,
        company_id: domain.company_id,
        subscriptions: [domain.subscription_id],
      }),
    ]);
  });
}
