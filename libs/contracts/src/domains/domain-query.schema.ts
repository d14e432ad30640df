import { z } from 'zod';
import { dateTime, paginationQuerySchema, queryBool, queryInt } from '../common';
import { domainSourceSchema, domainStatusSchema, subscriptionStatusSchema } from './domain.schema';
import { merchantIdText } from '../merchants/merchant-input';

/** `product_id` may repeat (`?product_id=1&product_id=2`) or be comma separated. */
const stringList = () =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) =>
      (Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .meta({ description: 'Repeat the parameter or separate values with commas' });

const q = () => z.string().trim().min(1).max(255);

/** GET /portal/domains query: every filter of the spec; unknown parameters are ignored. */
export const listDomainsQuerySchema = paginationQuerySchema.extend({
  search: q().optional().meta({ description: 'Search by hostname, domain id or property id' }),
  id: q().optional().meta({ description: 'A specific domain id' }),
  status: domainStatusSchema.optional(),
  is_active: queryBool()
    .optional()
    .meta({ description: 'Inactive domains are listed only with is_active=false or status=INACTIVE' }),
  source: domainSourceSchema.optional(),
  has_scripts: queryBool().optional(),
  has_dsar: queryBool().optional(),
  has_docs: queryBool().optional(),
  has_accessibility: queryBool().optional(),
  display_company: queryBool().optional(),
  display_dpo: queryBool().optional(),
  company_trade_name: q().optional().meta({ description: 'Case-insensitive contains' }),
  company_id_number: q().optional(),
  instance_company_id: q().optional(),
  instance_property_id: q().optional(),
  instance_id: queryInt().optional(),
  widget_version: queryInt().optional(),
  product_id: stringList().optional(),
  price_list_id: q().optional(),
  merchant_id: merchantIdText().optional(),
  subscription_status: subscriptionStatusSchema.optional(),
  is_active_subscription: queryBool().optional(),
  has_subscription: queryBool().optional(),
  referral_partner_id: q().optional(),
  created_at_start: dateTime().optional(),
  created_at_end: dateTime().optional(),
  activated_at_start: dateTime().optional(),
  activated_at_end: dateTime().optional(),
});
export type ListDomainsQuery = z.output<typeof listDomainsQuerySchema>;
