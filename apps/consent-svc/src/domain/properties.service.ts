import { z } from 'zod';
import { dataCollectionItemSchema, type DomainState, type PayloadOf } from '@platform/contracts';
import type { Transaction } from '@platform/db';
import { applyIfNewer, newestIfNewer } from '@platform/messaging';
import {
  markPropertyDeleted,
  mergeCreatedProperties,
  setHasDsar,
  setScannedCollection,
  upsertPropertyStates,
} from '../db/properties.repository';
import { SCHEMA, type ConsentDb } from '../db/tables';
import { companyFromDomainCreated, propertyFromDomainState } from './property-projection';

/** The projection's name in projection_versions: one version per domain. */
const PROJECTION = 'domain';

interface DomainEventMeta {
  partnerId: string;
  version: number;
}

/** A domain's whole state (domain.changed) or its creation (domain.created), with its event's partner and version. */
type DomainEvent =
  | { event: 'domain.changed'; meta: DomainEventMeta; payload: PayloadOf<'domain.changed'> }
  | { event: 'domain.created'; meta: DomainEventMeta; payload: PayloadOf<'domain.created'> };

/**
 * A batch of domain.changed and domain.created (a create commits both side by side) in a fixed
 * number of statements, whatever their order: each domain's newest state where it is newer than
 * the projection's, the company's address from each creation, and each property's has_dsar where
 * the creation is newer than the settings the projection has.
 */
export async function applyDomainEvents(trx: Transaction<ConsentDb>, events: DomainEvent[]) {
  const changed = events.flatMap((e) =>
    e.event === 'domain.changed' ? [{ meta: e.meta, domain: e.payload.params.domain }] : [],
  );
  const created = events.flatMap((e) => (e.event === 'domain.created' ? [{ meta: e.meta, payload: e.payload }] : []));
  await applyDomainStates(trx, changed);
  // One row per property in each statement (a repeated message would otherwise touch a row twice).
  const creations = [...new Map(created.map((c) => [c.payload.entity.data.instance_property_id, c])).values()];
  await mergeCreatedProperties(
    trx,
    creations.map(({ meta, payload: { params, entity } }) => ({
      propertyId: entity.data.instance_property_id,
      partnerId: meta.partnerId,
      domainId: params.domain_id,
      hostname: params.domain,
      subdomains: [],
      status: params.status,
      merchantIds: params.merchant_id ? [params.merchant_id] : [],
      merchantRefs: [],
      companyId: entity.data.instance_company_id,
      company: companyFromDomainCreated(params),
    })),
  );
  await applySettings(
    trx,
    creations.map(({ meta, payload }) => ({
      meta,
      propertyId: payload.entity.data.instance_property_id,
      hasDsar: payload.params.has_dsar,
    })),
  );
}

async function applyDomainStates(
  trx: Transaction<ConsentDb>,
  changes: { meta: DomainEventMeta; domain: DomainState }[],
) {
  const latest = await newestIfNewer(trx, SCHEMA, PROJECTION, changes, (c) => ({
    aggregateId: c.domain.id,
    version: c.meta.version,
  }));
  await upsertPropertyStates(
    trx,
    latest.map((c) => propertyFromDomainState(c.meta.partnerId, c.domain)),
  );
}

/** The projection of the property's settings consent-svc acts on (has_dsar): one version per property. */
const SETTINGS = 'property-settings';

async function applySettings(
  trx: Transaction<ConsentDb>,
  settings: { meta: DomainEventMeta; propertyId: string; hasDsar: boolean }[],
) {
  const latest = await newestIfNewer(trx, SCHEMA, SETTINGS, settings, (x) => ({
    aggregateId: x.propertyId,
    version: x.meta.version,
  }));
  await setHasDsar(
    trx,
    latest.map((x) => ({ propertyId: x.propertyId, partnerId: x.meta.partnerId, hasDsar: x.hasDsar })),
  );
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
  await applySettings(trx, [{ meta: event, propertyId: params.property_id, hasDsar: entity.data.has_dsar }]);
  const scanned = scannedCollectionSchema.safeParse(params.data_collection);
  if (!scanned.success) return;
  if (!(await applyIfNewer(trx, SCHEMA, SCANNED, params.property_id, event.version))) return;
  await setScannedCollection(trx, { propertyId: params.property_id, partnerId: event.partnerId, items: scanned.data });
}
