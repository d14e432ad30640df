import { randomUUID } from 'node:crypto';
import {
  DOMAIN_EVENTS,
  domainChangedEvent,
  type DOMAIN_CHANGES,
  type DomainState,
  type EventMessage,
  type EventPayload,
} from '@platform/contracts';

/** A domain's whole state as domains-svc's domain.changed carries it (what the projections consume). */
export function domainState(overrides: Partial<DomainState> = {}): DomainState {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    hostname: `shop-${randomUUID().slice(0, 8)}.example.com`,
    subdomains: [],
    status: 'NEW',
    is_active: true,
    source: 'API',
    property_id: randomUUID(),
    company_id: randomUUID(),
    company_name: 'Shop GmbH',
    owner_email: 'owner@example.com',
    merchants: [],
    created_at: now,
    updated_at: now,
    activated_at: null,
    ...overrides,
  };
}

/** A message from domains-svc about one aggregate, at the version given. */
export const domainEvent = (
  partnerId: string,
  aggregateId: string,
  version: number,
  payload: EventPayload,
): EventMessage => ({
  id: randomUUID(),
  partner_id: partnerId,
  occurred_at: new Date().toISOString(),
  source: 'domains-svc',
  aggregate_id: aggregateId,
  version,
  payload,
});

/** domain.changed; on a create it follows the create's other events, so the first one comes at version 2. */
export const domainChanged = (
  partnerId: string,
  domain: DomainState,
  version: number,
  change: (typeof DOMAIN_CHANGES)[number] = version <= 2 ? 'created' : 'updated',
) => domainEvent(partnerId, domain.id, version, domainChangedEvent(change, domain));

export const domainDeleted = (partnerId: string, domain: DomainState, version: number) =>
  domainEvent(partnerId, domain.id, version, {
    event: DOMAIN_EVENTS.deleted,
    params: {
      id: domain.id,
      domain: domain.hostname,
      property_id: domain.property_id,
      company_id: domain.company_id,
      subscriptions: [],
    },
  });
