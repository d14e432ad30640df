import { z } from 'zod';
import { queryInt, resultOf } from '../common';
import { defineRoute, type RouteSpec } from '../routes';

export const RECEIPT_STATS_DAYS_MAX = 90;

export const receiptStatsQuerySchema = z.object({
  days: queryInt({ min: 1, max: RECEIPT_STATS_DAYS_MAX })
    .default(30)
    .meta({ description: `How many days, today (UTC) included: 1 to ${RECEIPT_STATS_DAYS_MAX}` }),
});

const count = z.number().int().min(0);

export const receiptDayStatsSchema = z
  .object({
    date: z.iso.date().meta({ description: 'The day (UTC)' }),
    allowed: count,
    partial: count,
    denied: count,
    total: count,
  })
  .meta({ id: 'ReceiptDayStats' });

export const receiptStatsSchema = z
  .object({
    per_day: z
      .array(receiptDayStatsSchema)
      .meta({ description: 'One entry per day, oldest first, today last; days with no receipt are 0' }),
  })
  .meta({ id: 'ReceiptStats' });
export type ReceiptStats = z.infer<typeof receiptStatsSchema>;

/** The portal's Dashboard: consent receipts per day, by receipt status. */
export const consentStatsRoutes = [
  defineRoute({
    service: 'consent',
    permission: 'records:read',
    tag: 'Dashboard',
    operationId: 'getReceiptStats',
    method: 'get',
    path: '/portal/stats/receipts',
    summary: 'Consent receipts per day, by receipt status',
    description: "Counts the consent records of every one of the partner's domains, by the UTC day they were made.",
    query: receiptStatsQuerySchema,
    response: resultOf(receiptStatsSchema),
    errors: ['VALIDATION.INVALID'],
  }),
] satisfies RouteSpec[];
