import type { GetRecordQuery, ListRecordsQuery } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { listPage, notFound } from '@platform/http';
import { findRecord, listRecords, type RecordScope } from '../db/records.repository';
import type { ConsentDb } from '../db/tables';

const scopeOf = (partnerId: string, q: { merchant_id?: string; domain_id?: string }): RecordScope => ({
  partnerId,
  domainId: q.domain_id,
  merchantId: q.merchant_id,
});

/** The partner's records through a domain or merchant, newest first; another partner's domain or merchant lists nothing. */
export function listConsentRecords(db: Kysely<ConsentDb>, partnerId: string, query: ListRecordsQuery) {
  const filters = {
    propertyId: query.property_id,
    receiptType: query.receipt_type,
    receiptStatus: query.receipt_status,
  };
  return listPage(query, (window) => listRecords(db, scopeOf(partnerId, query), filters, window));
}

/** One record of the domain or merchant named; 404 for any other (another partner's included). */
export async function getConsentRecord(db: Kysely<ConsentDb>, partnerId: string, id: string, query: GetRecordQuery) {
  const record = await findRecord(db, scopeOf(partnerId, query), id);
  if (!record) throw notFound('record');
  return record;
}
