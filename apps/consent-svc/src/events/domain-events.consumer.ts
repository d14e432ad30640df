import type { EventMessage } from '@platform/contracts';
import type { ConsumerSpec } from '@platform/service';
import type { ConsentDb } from '../db/tables';
import {
  applyDomainChanged,
  applyDomainCreated,
  applyDomainDeleted,
  applyPropertyUpdated,
} from '../domain/properties.service';

const eventMeta = (message: Omit<EventMessage, 'payload'>) => ({
  partnerId: message.partner_id,
  version: message.version,
});

/**
 * consent-svc learns each property's owner, hostnames, merchants, company and scanned data collection from domains-svc's
 * events (idempotent: a message id is applied once, and a domain's state only when newer).
 */
export function domainEventsConsumer(): ConsumerSpec<ConsentDb> {
  return {
    handlers: {
      'domain.changed': (message, trx) => applyDomainChanged(trx, eventMeta(message), message.payload.params.domain),
      'domain.created': (message, trx) => applyDomainCreated(trx, eventMeta(message), message.payload),
      'domain.deleted': (message, trx) => applyDomainDeleted(trx, eventMeta(message), message.payload.params),
      'property.updated': (message, trx) => applyPropertyUpdated(trx, eventMeta(message), message.payload),
    },
  };
}
