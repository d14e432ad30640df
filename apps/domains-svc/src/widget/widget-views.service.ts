import { DOMAIN_EVENTS, type EventPayload, type PropertyEntityData } from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { notFound } from '@platform/http';
import { canMove } from '../status';
import { activateOnFirstView, findViewedDomain, markPropertyActivated } from './widget.repository';
import { propertyEntityData, writeDomainEvents } from '../domains/events/domain-events.writer';
import type { DomainsContext } from '../context';

const propertyActivatedEvent = (domainName: string, data: PropertyEntityData): EventPayload => ({
  event: DOMAIN_EVENTS.propertyActivated,
  params: { property_id: data.id, domain_name: domainName },
  entity: { kind: 'property', data },
});

/**
 * A page view of the widget. The domain's status is read first: an ACTIVE (or INACTIVE) domain's
 * view writes nothing at all. A NEW, SCANNED or INVITED one is activated by one conditional
 * UPDATE; only the view that changed the row writes property.activated and domain.changed, in
 * the same transaction, so they go out exactly once however many first views race.
 */
export async function recordWidgetView(
  ctx: Pick<DomainsContext, 'db'>,
  propertyId: string,
): Promise<{ activated: boolean }> {
  const domain = await findViewedDomain(ctx.db, propertyId);
  if (!domain) throw notFound('property');
  if (!canMove('firstView', domain.status)) return { activated: false };
  return inTransaction(ctx.db, async (trx) => {
    const activated = await activateOnFirstView(trx, propertyId);
    if (!activated) return { activated: false };
    const property = await markPropertyActivated(trx, propertyId, activated.activated_at ?? new Date());
    await writeDomainEvents(
      trx,
      activated.partner_id,
      activated.id,
      [propertyActivatedEvent(activated.hostname, propertyEntityData(property))],
      { kind: 'activated' },
    );
    return { activated: true };
  });
}
