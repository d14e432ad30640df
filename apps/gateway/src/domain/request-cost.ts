import { BULK_CHANGE_MAX, PAGE_LIMIT_MAX } from '@platform/contracts';

/** Rows one unit of the rate limit buys on a list page: a page of 10 (the default) costs 1. */
export const ROWS_PER_UNIT = 10;
/** A write (POST, PUT, PATCH, DELETE): a transaction, an event, often webhooks. */
export const WRITE_COST = 2;
/** A bulk change: up to BULK_CHANGE_MAX domains, priced like a page of that many rows. */
export const BULK_COST = Math.ceil(BULK_CHANGE_MAX / ROWS_PER_UNIT);

const LIMIT = /[?&]limit=(\d{1,9})(?:&|$)/;

/**
 * What a request costs against its key's rate limit, from the request line alone (before routing,
 * so refused and unroutable requests are counted too): a list page in proportion to its `limit`,
 * a bulk change like a page of its largest size, a write twice a read, anything else 1.
 */
export function requestCost(method: string, url: string): number {
  if (url.includes('/bulk/')) return BULK_COST;
  const base = method === 'GET' || method === 'HEAD' ? 1 : WRITE_COST;
  const q = url.indexOf('?');
  const limit = q >= 0 ? LIMIT.exec(url.slice(q)) : null;
  if (!limit) return base;
  return Math.max(base, Math.ceil(Math.min(Math.max(Number(limit[1]), 1), PAGE_LIMIT_MAX) / ROWS_PER_UNIT));
}
