import type { onboardingInternalRoutes } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import { reply, type Handlers } from '@platform/http';
import type { DomainsContext } from '../context';
import { confirmRegistration, storeRegistration } from './registrations.service';

/**
 * The onboarding widgets' calls, made by the gateway for a visitor (it names the partner and
 * its onboarding settings in the body): validated input -> use case -> answer.
 */
export function onboardingHandlers(
  ctx: DomainsContext,
): Handlers<(typeof onboardingInternalRoutes)[number], InternalCaller> {
  return {
    storeRegistration: async ({ body }) =>
      reply(202, { result: await storeRegistration(ctx, body.partner, body.registration) }),
    redeemRegistration: async ({ body }) => ({ result: await confirmRegistration(ctx, body.partner, body.token) }),
  };
}
