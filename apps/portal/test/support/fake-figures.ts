// The consent figures the fake answers (getPropertyStats, getPortfolioStats, getOwnerStats): every
// day of the asked range, made up from the day's number so each run reads the same; a NEW domain
// (never shown a notice) has none, so its screens show the empty state.
import type { ConsentFigures, DomainDetail } from '@platform/contracts';

const DAY_MS = 86_400_000;

export function fakeFigures(from: string, to: string, scale: number): ConsentFigures {
  const start = Date.parse(from);
  const days = Math.round((Date.parse(to) - start) / DAY_MS) + 1;
  const per_day = Array.from({ length: days }, (_, i) => {
    const n = Math.floor(start / DAY_MS) + i;
    const accept_all = scale * (30 + (n % 7) * 4);
    const reject_all = scale * (10 + (n % 5) * 2);
    const custom = scale * (5 + (n % 3));
    const choices = accept_all + reject_all + custom;
    return {
      date: new Date(start + i * DAY_MS).toISOString().slice(0, 10),
      notice_views: choices + scale * (20 + (n % 4) * 5),
      accept_all,
      reject_all,
      custom,
      gpc_opt_outs: scale * (n % 3),
      granted: {
        functional: accept_all + custom,
        analytics: accept_all + Math.floor(custom / 2),
        marketing: accept_all,
      },
    };
  });
  const totals = per_day.reduce(
    (t, d) => ({
      notice_views: t.notice_views + d.notice_views,
      accept_all: t.accept_all + d.accept_all,
      reject_all: t.reject_all + d.reject_all,
      custom: t.custom + d.custom,
      gpc_opt_outs: t.gpc_opt_outs + d.gpc_opt_outs,
      granted: {
        functional: t.granted.functional + d.granted.functional,
        analytics: t.granted.analytics + d.granted.analytics,
        marketing: t.granted.marketing + d.granted.marketing,
      },
    }),
    {
      notice_views: 0,
      accept_all: 0,
      reject_all: 0,
      custom: 0,
      gpc_opt_outs: 0,
      granted: { functional: 0, analytics: 0, marketing: 0 },
    },
  );
  const choices = totals.accept_all + totals.reject_all + totals.custom;
  const rate = (n: number) => (choices === 0 ? null : n / choices);
  return {
    from,
    to,
    per_day,
    totals,
    opt_in_rate: {
      functional: rate(totals.granted.functional),
      analytics: rate(totals.granted.analytics),
      marketing: rate(totals.granted.marketing),
    },
  };
}

/** A domain's own figures: none for a NEW one. */
export const domainFigures = (d: DomainDetail, from: string, to: string) =>
  fakeFigures(from, to, d.status === 'NEW' ? 0 : 1);
