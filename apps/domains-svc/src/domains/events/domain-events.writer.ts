import type { Kysely } from 'kysely';
import {
  domainChangedEvent,
  type DOMAIN_CHANGES,
  type DomainCompany,
  type DomainEntityData,
  type DomainSource,
  type DomainState,
  type DomainStatus,
  type EventPayload,
  type PropertyEntityData,
} from '@platform/contracts';
import { writeOutbox } from '@platform/messaging';
import type { DomainListRow } from '../db/domain-list.repository';
import { findDomainState, type DomainStateRow } from '../db/domain-reads.repository';
import type { PropertyRow } from '../db/properties.repository';
import { SCHEMA, type DomainsDb } from '../../db/tables';
import type { InstanceSettings } from '../../context';

const EVENT_SOURCE = 'domains-svc';

type DomainChange = (typeof DOMAIN_CHANGES)[number];

/**
 * Writes one domain's events in the caller's transaction (the request id travels in the message
 * headers), all with the domain as their aggregate. With a change, domain.changed follows with
 * the domain's whole state after it (read in this transaction unless given), for projections.
 */
export async function writeDomainEvents(
  trx: Kysely<DomainsDb>,
  partnerId: string,
  domainId: string,
  payloads: EventPayload[],
  change?: { kind: DomainChange; state?: DomainState },
) {
  const all = [...payloads];
  if (change) {
    const state = change.state ?? toDomainState(await findDomainState(trx, partnerId, domainId));
    all.push(domainChangedEvent(change.kind, state));
  }
  return writeOutbox(
    trx,
    SCHEMA,
    EVENT_SOURCE,
    all.map((payload) => ({ partnerId, aggregateId: domainId, payload })),
  );
}

/** Events of several domains (each its own aggregate) in the caller's transaction, in the order given. */
export async function writeDomainEventBatch(
  trx: Kysely<DomainsDb>,
  events: { partnerId: string; domainId: string; payload: EventPayload }[],
) {
  return writeOutbox(
    trx,
    SCHEMA,
    EVENT_SOURCE,
    events.map((e) => ({ partnerId: e.partnerId, aggregateId: e.domainId, payload: e.payload })),
  );
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toDomainState(row: DomainStateRow): DomainState {
  return {
    id: row.id,
    hostname: row.hostname,
    subdomains: row.subdomains,
    status: row.status as DomainStatus,
    is_active: row.is_active,
    source: row.source as DomainSource,
    property_id: row.property_id,
    company_id: row.company_id,
    company_name: row.company_name,
    owner_email: row.owner_email,
    merchants: row.merchants,
    merchant_links: row.merchant_links,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    activated_at: iso(row.activated_at),
    company: domainCompany({
      ...row,
      name: row.company_name,
      trade_name: row.company_trade_name,
      email: row.company_email,
    }),
  };
}

/** The company as domain.changed carries it (consent records name it as the data controller). */
export function domainCompany(c: DomainCompany): DomainCompany {
  const { name, trade_name, email, phone_number, country, state, city, address, address_2, postal_code } = c;
  return { name, trade_name, email, phone_number, country, state, city, address, address_2, postal_code };
}

export function domainEntityData(row: DomainListRow, settings: InstanceSettings): DomainEntityData {
  return {
    id: row.id,
    hostname: row.hostname,
    status: row.status as DomainStatus,
    has_scripts: row.has_scripts,
    has_dsar: row.has_dsar,
    has_docs: row.has_docs,
    has_accessibility: row.has_accessibility,
    display_dpo: row.display_dpo,
    display_company: row.display_company,
    instance_property_id: row.property_id,
    instance_company_id: row.company_id,
    instance: settings.instance,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function propertyEntityData(p: PropertyRow): PropertyEntityData {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    status: p.status,
    widget_font: p.widget_font,
    widget_position: p.widget_position,
    border_radius: p.border_radius,
    primary_color: p.primary_color,
    text_color: p.text_color,
    has_scripts: p.has_scripts,
    has_dsar: p.has_dsar,
    has_docs: p.has_docs,
    has_accessibility: p.has_accessibility,
    has_accessibility_icon: p.has_accessibility_icon,
    display_dpo: p.display_dpo,
    display_company: p.display_company,
    has_welcome_message: p.has_welcome_message,
    has_continuous_scanning: p.has_continuous_scanning,
    company_id: p.company_id,
    activated_at: p.activated_at ? p.activated_at.toISOString() : null,
    created_at: p.created_at.toISOString(),
  };
}
