import type { onboardingInternalRoutes } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import { reply, type Handlers } from '@platform/http';
import type { DomainsContext } from '../context';
import { confirmRegistration, storeRegistration } from './registrations.service';
import { readWidgetScan, startWidgetScan } from './widget-scans.service';

/**
 * The onboarding widgets' calls (registrations; scans, whose report the scanner e-mails when they
 * end), made by the gateway for a visitor (it names the partner and
 * its onboarding settings in the body): validated input -> use case -> answer.
 */
export function onboardingHandlers(
  ctx: DomainsContext,
  settings: { minIntervalMs: number },
): Handlers<(typeof onboardingInternalRoutes)[number], InternalCaller> {
  return {
    storeRegistration: async ({ body }) =>
      reply(202, { result: await storeRegistration(ctx, body.partner, body.registration) }),
    redeemRegistration: async ({ body }) => ({ result: await confirmRegistration(ctx, body.partner, body.token) }),
    startWidgetScan: async ({ body }) =>
      reply(202, { result: await startWidgetScan(ctx, body.partner, body.scan, settings.minIntervalMs) }),
    readWidgetScan: async ({ params }) => ({
      result: await readWidgetScan(ctx, params.partnerId, params.scanToken),
    }),
  };
}
