import type { Kysely } from 'kysely';
import type { DomainEntityData, DomainStatus, EventPayload, PropertyEntityData } from '@platform/contracts';
import { writeOutbox } from '@platform/messaging';
import type { DomainListRow } from '../db/domains.repository';
import type { PropertyRow } from '../db/properties.repository';
import { SCHEMA, type DomainsDb } from '../db/tables';
import type { InstanceSettings } from '../domain/context';

export const EVENT_SOURCE = 'domains-svc';

/** Writes events in the caller's transaction (the request id travels in the message headers). */
export async function writeEvents(trx: Kysely<DomainsDb>, partnerId: string, payloads: EventPayload[]) {
  await writeOutbox(
    trx,
    SCHEMA,
    EVENT_SOURCE,
    payloads.map((payload) => ({ partnerId, payload })),
  );
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
