import type { ConsentRecord, ReceiptBody } from '@platform/contracts';
import { notFound } from '@platform/http';
import { findLiveProperty, type PropertyRow } from '../db/properties.repository';
import { recordRow, type RecordRow } from '../db/records.repository';
import type { ConsentDb } from '../db/tables';
import type { Kysely } from '@platform/db';
import { buildRecord } from './consent-record';
import type { LiveProperties } from './live-properties';
import type { ConsentContext } from './context';

/** The hostname of a live property, for the chassis' Origin rule on public routes (see ServiceDefinition.propertyHostname). */
export async function propertyHostnameLookup(db: Kysely<ConsentDb>, propertyId: string): Promise<string | undefined> {
  return (await findLiveProperty(db, propertyId))?.hostname;
}

/**
 * The live property a widget request names, or 404. The chassis has already answered 403 for an
 * Origin off its site and set the CORS headers (propertyHostname in service.ts); this is the row
 * the record is built from, and a property deleted since the chassis looked is 404 here.
 */
export async function widgetProperty(properties: LiveProperties, propertyId: string): Promise<PropertyRow> {
  const property = await properties.find(propertyId);
  if (!property) throw notFound('property');
  return property;
}

/**
 * A visitor's choice as a signed record: the place comes from the visitor's address (looked up,
 * never stored), the company and purposes from the projection; `store` commits the row (a
 * replayed nonce stores nothing and is 400 RECEIPT.REPLAYED).
 */
export async function recordReceipt(
  ctx: Pick<ConsentContext, 'geo' | 'signer'>,
  store: (row: RecordRow) => Promise<void>,
  input: {
    property: PropertyRow;
    body: ReceiptBody;
    visitorAddress: string | undefined;
    subjectData?: Record<string, unknown>;
  },
): Promise<ConsentRecord> {
  const { property, body } = input;
  const place = ctx.geo.lookup(input.visitorAddress);
  const record = buildRecord({ property, body, place, subjectData: input.subjectData, now: new Date() });
  const signature = ctx.signer.sign(record);
  await store(
    recordRow({ partnerId: property.partner_id, domainId: property.domain_id, nonce: body.nonce }, record, signature),
  );
  return { ...record, signature };
}
