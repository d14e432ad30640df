import type { EventMessage, MessageOf } from '@platform/contracts';
import type { Transaction } from '@platform/db';
import type { ConsumerSpec } from '@platform/service';
import type { ConsentDb } from '../db/tables';
import { applyDomainDeleted, applyDomainEvents, applyPropertyUpdated } from '../domain/properties.service';

const eventMeta = (message: Omit<EventMessage, 'payload'>) => ({
  partnerId: message.partner_id,
  version: message.version,
});

/**
 * consent-svc learns each property's owner, hostnames, merchants, company and scanned data collection from domains-svc's
 * events (idempotent: a message id is applied once, and a domain's state only when newer). A
 * create's domain.created and domain.changed, the bulk of the traffic, are applied in batches
 * (one handler for both, so their alternation does not cut the batch).
 */
export function domainEventsConsumer(): ConsumerSpec<ConsentDb> {
  const domainEvents = (
    messages: (MessageOf<'domain.changed'> | MessageOf<'domain.created'>)[],
    trx: Transaction<ConsentDb>,
  ) =>
    applyDomainEvents(
      trx,
      messages.map((m) =>
        m.payload.event === 'domain.changed'
          ? { event: 'domain.changed', meta: eventMeta(m), payload: m.payload }
          : { event: 'domain.created', meta: eventMeta(m), payload: m.payload },
      ),
    );
  return {
    batchHandlers: { 'domain.changed': domainEvents, 'domain.created': domainEvents },
    handlers: {
      'domain.deleted': (message, trx) => applyDomainDeleted(trx, eventMeta(message), message.payload.params),
      'property.updated': (message, trx) => applyPropertyUpdated(trx, eventMeta(message), message.payload),
    },
  };
}
