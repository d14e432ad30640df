import { DOMAIN_EVENTS, type EventPayload, type PropertyEntityData } from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { isUrlOnHost, notFound, validationError } from '@platform/http';
import { canMove } from '../status';
import { activateOnFirstView, findViewedDomain, markPropertyActivated } from './widget.repository';
import { propertyEntityData, writeDomainEvents } from '../domains/events/domain-events.writer';
import type { DomainsContext } from '../context';

const propertyActivatedEvent = (domainName: string, data: PropertyEntityData): EventPayload => ({
  event: DOMAIN_EVENTS.propertyActivated,
  params: { property_id: data.id, domain_name: domainName },
  entity: { kind: 'property', data },
});

/** Activations under way in this process, by property: concurrent first views share one (one transaction, not one each). */
const activating = new Map<string, Promise<{ activated: boolean }>>();

/**
 * A page view of the widget, from a page (url) on the property's hostname or a subdomain (400
 * VALIDATION.INVALID otherwise). The domain's status is read first: an ACTIVE (or INACTIVE)
 * domain's view writes nothing at all. A NEW, SCANNED or INVITED one is activated once (see activate).
 */
export async function recordWidgetView(
  ctx: Pick<DomainsContext, 'db'>,
  propertyId: string,
  pageUrl: string,
): Promise<{ activated: boolean }> {
  const domain = await findViewedDomain(ctx.db, propertyId);
  if (!domain) throw notFound('property');
  if (!isUrlOnHost(pageUrl, domain.hostname)) {
    throw validationError([{ path: 'url', message: `Must be an http(s) URL on ${domain.hostname} or a subdomain.` }]);
  }
  if (!canMove('firstView', domain.status)) return { activated: false };
  const pending = activating.get(propertyId);
  if (pending) return pending;
  const attempt = activate(ctx, propertyId).finally(() => activating.delete(propertyId));
  activating.set(propertyId, attempt);
  return attempt;
}

/**
 * One conditional UPDATE; only the view that changed the row writes property.activated and
 * domain.changed, in the same transaction, so they go out exactly once however many first views race
 * (across processes too).
 */
async function activate(ctx: Pick<DomainsContext, 'db'>, propertyId: string): Promise<{ activated: boolean }> {
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
