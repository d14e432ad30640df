import type { EventMessage } from '@platform/contracts';
import type { ConsumerSpec } from '@platform/service';
import type { MerchantsDb } from '../db/tables';
import { applyDomainDeleted, applyDomainStates } from '../domain/domain-links.service';

const eventMeta = (message: Omit<EventMessage, 'payload'>) => ({
  partnerId: message.partner_id,
  version: message.version,
  occurredAt: message.occurred_at,
});

/**
 * merchants-svc follows domains: the merchants a domain names are created, registered and linked
 * to it. domain.changed of a new domain commits with its domain.created, so that one is not needed.
 */
export function domainEventsConsumer(): ConsumerSpec<MerchantsDb> {
  return {
    batchHandlers: {
      'domain.changed': (messages, trx) =>
        applyDomainStates(
          trx,
          messages.map((m) => ({ event: eventMeta(m), domain: m.payload.params.domain })),
        ),
    },
    handlers: {
      'domain.deleted': (message, trx) => applyDomainDeleted(trx, eventMeta(message), message.payload.params.id),
    },
  };
}
