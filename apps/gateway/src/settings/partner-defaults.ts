/**
 * The partner's default product and price list as a key record, a session's user and so the
 * internal token carry them: spread into the caller, absent when the partner has neither.
 */
export const partnerDefaults = (row: { default_product: string | null; default_price_list: string | null }) =>
  row.default_product || row.default_price_list
    ? {
        defaults: {
          ...(row.default_product ? { product: row.default_product } : {}),
          ...(row.default_price_list ? { priceList: row.default_price_list } : {}),
        },
      }
    : {};
