import type { scanRoutes } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import { reply, type Handlers } from '@platform/http';
import type { HomePageReader } from '@platform/scanner';
import type { DomainsContext } from '../context';
import { checkInstall } from './install-check';
import { latestScan, requestScan, toScanReport } from './scans.service';

/** POST and GET /portal/domains/{domainId}/scan, and GET .../install-check (the home page read now). */
export function scanHandlers(
  ctx: DomainsContext,
  settings: { minIntervalMs: number; homePages: HomePageReader },
): Handlers<(typeof scanRoutes)[number], InternalCaller> {
  return {
    startDomainScan: async ({ caller, params }) =>
      reply(202, {
        result: toScanReport(await requestScan(ctx, caller.partnerId, params.domainId, settings.minIntervalMs)),
      }),
    getDomainScan: async ({ caller, params }) => ({
      result: toScanReport(await latestScan(ctx, caller.partnerId, params.domainId)),
    }),
    checkDomainInstall: async ({ caller, params }) => ({
      result: await checkInstall(ctx, settings.homePages, caller.partnerId, params.domainId),
    }),
  };
}
