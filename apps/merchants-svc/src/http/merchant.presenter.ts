import type { Merchant } from '@platform/contracts';
import type { MerchantViewRow } from '../db/merchants.repository';

export function toMerchant(row: MerchantViewRow): Merchant {
  return {
    id: row.id,
    merchant_id: row.merchant_id,
    company_name: row.company_name,
    description: row.description,
    meta: row.meta,
    default_product: row.default_product,
    default_price_list: row.default_price_list,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    partner_id: row.partner_id,
    registered_at: row.registered_at?.toISOString() ?? null,
    domain:
      row.domain_id === null
        ? null
        : {
            id: row.domain_id,
            hostname: row.hostname!,
            status: row.status as NonNullable<Merchant['domain']>['status'],
            is_active: row.is_active!,
            created_at: row.domain_created_at!.toISOString(),
            email: row.email!,
            source: row.source as NonNullable<Merchant['domain']>['source'],
          },
  };
}
