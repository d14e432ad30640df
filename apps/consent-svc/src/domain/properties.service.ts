import { z } from 'zod';
import { dataCollectionItemSchema, type DomainState, type PayloadOf } from '@platform/contracts';
import type { Transaction } from '@platform/db';
import { applyIfNewer } from '@platform/messaging';
import {
  markPropertyDeleted,
  mergeCreatedProperty,
  setHasDsar,
  setScannedCollection,
  upsertPropertyState,
} from '../db/properties.repository';
import { SCHEMA, type ConsentDb } from '../db/tables';
import { companyFromDomainCreated, propertyFromDomainState } from './property-projection';

/** The projection's name in projection_versions: one version per domain. */
const PROJECTION = 'domain';

interface DomainEventMeta {
  partnerId: string;
  version: number;
}

/** A domain's whole state (domain.changed), applied only when newer than what the projection has. */
export async function applyDomainChanged(trx: Transaction<ConsentDb>, event: DomainEventMeta, domain: DomainState) {
  if (!(await applyIfNewer(trx, SCHEMA, PROJECTION, domain.id, event.version))) return;
  await upsertPropertyState(trx, propertyFromDomainState(event.partnerId, domain));
}

/** domain.created adds the company's address (in any order with the domain.changed committed beside it). */
export async function applyDomainCreated(
  trx: Transaction<ConsentDb>,
  event: DomainEventMeta,
  payload: PayloadOf<'domain.created'>,
) {
  const { params, entity } = payload;
  await mergeCreatedProperty(trx, {
    propertyId: entity.data.instance_property_id,
    partnerId: event.partnerId,
    domainId: params.domain_id,
    hostname: params.domain,
    subdomains: [],
    status: params.status,
    merchantIds: params.merchant_id ? [params.merchant_id] : [],
    merchantRefs: [],
    companyId: entity.data.instance_company_id,
    company: companyFromDomainCreated(params),
  });
  await applySettings(trx, event, { propertyId: entity.data.instance_property_id, hasDsar: params.has_dsar });
}

/** The projection of the property's settings consent-svc acts on (has_dsar): one version per property. */
const SETTINGS = 'property-settings';

async function applySettings(
  trx: Transaction<ConsentDb>,
  event: DomainEventMeta,
  settings: { propertyId: string; hasDsar: boolean },
) {
  if (!(await applyIfNewer(trx, SCHEMA, SETTINGS, settings.propertyId, event.version))) return;
  await setHasDsar(trx, { ...settings, partnerId: event.partnerId });
}

/** A deleted domain's property takes no widget request any more; an older domain.changed arriving later is ignored. */
export async function applyDomainDeleted(
  trx: Transaction<ConsentDb>,
  event: DomainEventMeta,
  params: PayloadOf<'domain.deleted'>['params'],
) {
  await applyIfNewer(trx, SCHEMA, PROJECTION, params.id, event.version);
  await markPropertyDeleted(trx, {
    propertyId: params.property_id,
    partnerId: event.partnerId,
    domainId: params.id,
    hostname: params.domain,
    companyId: params.company_id,
  });
}

/** The projection of the scanner's findings: one version per property. */
const SCANNED = 'property-scan';
const scannedCollectionSchema = z.array(dataCollectionItemSchema);

/**
 * property.updated: its settings (has_dsar, from the property it carries) and, with a data_collection
 * (the site scanner's findings, see domains-svc's scan feed), what later records name the site uses.
 */
export async function applyPropertyUpdated(
  trx: Transaction<ConsentDb>,
  event: DomainEventMeta,
  payload: PayloadOf<'property.updated'>,
) {
  const { params, entity } = payload;
  await applySettings(trx, event, { propertyId: params.property_id, hasDsar: entity.data.has_dsar });
  const scanned = scannedCollectionSchema.safeParse(params.data_collection);
  if (!scanned.success) return;
  if (!(await applyIfNewer(trx, SCHEMA, SCANNED, params.property_id, event.version))) return;
  await setScannedCollection(trx, { propertyId: params.property_id, partnerId: event.partnerId, items: scanned.data });
}
