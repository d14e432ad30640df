import type { InternalCaller } from '@platform/auth';
import {
  daysInRange,
  FIGURE_CATEGORIES,
  type ConsentDayFigures,
  type ConsentFigures,
  type consentFigureRoutes,
} from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { notFound, type Handlers } from '@platform/http';
import type { RecordScope } from '../db/records.repository';
import type { ConsentDb } from '../db/tables';
import { countersPerDay, scopeExists } from './counters.repository';
import { exportRecords } from './records-export';

const DAY_MS = 86_400_000;
type Counts = Omit<ConsentDayFigures, 'date'>;

const zero = (): Counts => ({
  notice_views: 0,
  accept_all: 0,
  reject_all: 0,
  custom: 0,
  gpc_opt_outs: 0,
  granted: { functional: 0, analytics: 0, marketing: 0 },
});

function add(into: Counts, day: Counts) {
  into.notice_views += day.notice_views;
  into.accept_all += day.accept_all;
  into.reject_all += day.reject_all;
  into.custom += day.custom;
  into.gpc_opt_outs += day.gpc_opt_outs;
  for (const c of FIGURE_CATEGORIES) into.granted[c] += day.granted[c];
}

/** Every day of the range (a quiet one as zeros), the range's totals, and each category's share of the choices that granted it. */
export async function consentFigures(
  db: Kysely<ConsentDb>,
  scope: RecordScope,
  range: { from: string; to: string },
): Promise<ConsentFigures> {
  const byDate = new Map((await countersPerDay(db, scope, range)).map((row) => [row.date, row]));
  const totals = zero();
  const start = Date.parse(range.from);
  const per_day = Array.from({ length: daysInRange(range.from, range.to) }, (_, k) => {
    const date = new Date(start + k * DAY_MS).toISOString().slice(0, 10);
    const row = byDate.get(date);
    const counts = zero();
    if (row) {
      const { date: _date, granted_functional, granted_analytics, granted_marketing, ...rest } = row;
      Object.assign(counts, rest, {
        granted: { functional: granted_functional, analytics: granted_analytics, marketing: granted_marketing },
      });
    }
    add(totals, counts);
    return { date, ...counts };
  });
  const choices = totals.accept_all + totals.reject_all + totals.custom;
  const rate = (c: (typeof FIGURE_CATEGORIES)[number]) => (choices === 0 ? null : totals.granted[c] / choices);
  return {
    from: range.from,
    to: range.to,
    per_day,
    totals,
    opt_in_rate: { functional: rate('functional'), analytics: rate('analytics'), marketing: rate('marketing') },
  };
}

/** The partner's figures and export, by operationId: a domain or merchant of another partner is 404. */
export function figureHandlers(
  db: Kysely<ConsentDb>,
  exportPageSize: number,
): Handlers<(typeof consentFigureRoutes)[number], InternalCaller> {
  const scopeOf = async (partnerId: string, q: { domain_id?: string; merchant_id?: string }) => {
    const scope: RecordScope = { partnerId, domainId: q.domain_id, merchantId: q.merchant_id };
    if (!(await scopeExists(db, scope))) throw notFound(q.domain_id !== undefined ? 'domain' : 'merchant');
    return scope;
  };
  return {
    getPropertyStats: async ({ caller, query }) => ({
      result: await consentFigures(db, await scopeOf(caller.partnerId, query), query),
    }),
    getPortfolioStats: async ({ caller, query }) => ({
      result: await consentFigures(db, { partnerId: caller.partnerId }, query),
    }),
    exportRecords: async ({ caller, query }) =>
      exportRecords(db, await scopeOf(caller.partnerId, query), query, exportPageSize),
  };
}
