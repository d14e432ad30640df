import type { DsarBody } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { PropertyRow } from './properties.repository';
import type { ConsentDb } from './tables';

export async function insertDataRequest(
  db: Kysely<ConsentDb>,
  r: { id: string; property: PropertyRow; body: DsarBody; receiptId: string | null },
) {
  await db
    .insertInto('data_requests')
    .values({
      id: r.id,
      partner_id: r.property.partner_id,
      property_id: r.property.property_id,
      domain_id: r.property.domain_id,
      type: r.body.type,
      email: r.body.email,
      name: r.body.name ?? null,
      message: r.body.message ?? null,
      subject: r.body.subject ?? null,
      receipt_id: r.receiptId,
    })
    .execute();
}
