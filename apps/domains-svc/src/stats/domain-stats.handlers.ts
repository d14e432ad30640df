import type { InternalCaller } from '@platform/auth';
import type { domainStatsRoutes } from '@platform/contracts';
import type { Handlers } from '@platform/http';
import type { DomainsContext } from '../context';
import { domainStats } from './domain-stats.service';

/** The portal Dashboard's domain numbers, always the caller's partner's. */
export function domainStatsHandlers(ctx: DomainsContext): Handlers<(typeof domainStatsRoutes)[number], InternalCaller> {
  return {
    getDomainStats: async ({ caller, query }) => ({ result: await domainStats(ctx.db, caller.partnerId, query.weeks) }),
  };
}
