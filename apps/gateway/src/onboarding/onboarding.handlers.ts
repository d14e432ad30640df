import type { onboardingRoutes, OnboardingConfig, OnboardingWidgetSettings, RouteInput } from '@platform/contracts';
import { reply, type HandlerResult } from '@platform/http';
import type { OnboardingDomains } from './onboarding-domains';
import type { OnboardingLimits } from './onboarding-limits';
import { onboardingPartnerOf, type WidgetPartner } from './widget-partners';

export type OnboardingRoute = (typeof onboardingRoutes)[number];

/** What a widget's call carries once its partner is known and its Origin allowed. */
export interface WidgetCall<S extends OnboardingRoute> {
  params: RouteInput<S, 'params'>;
  body: RouteInput<S, 'body'>;
  partner: WidgetPartner;
  ip: string;
}

export type OnboardingHandlers = {
  [S in OnboardingRoute as S['operationId']]: (call: WidgetCall<S>) => Promise<HandlerResult<S>> | HandlerResult<S>;
};

/** A widget's look: revalidated on every page (a partner's change of colour shows at once). */
const configOf = (partner: WidgetPartner, widget: OnboardingWidgetSettings): OnboardingConfig => ({
  partner_name: partner.name,
  primary_color: widget.primary_color,
  required_fields: partner.required_fields,
});
const NO_CACHE = { 'Cache-Control': 'no-cache' };

/**
 * The widgets' operations, by operationId: the gateway answers the look from the partner's
 * settings, spends the client's budget, and asks domains-svc for the rest with the partner's
 * onboarding settings (its required fields and default product and price list).
 */
export function onboardingHandlers(deps: { domains: OnboardingDomains; limits: OnboardingLimits }): OnboardingHandlers {
  const { domains, limits } = deps;
  return {
    getRegistrationWidgetConfig: ({ partner }) =>
      reply(200, { result: configOf(partner, partner.widgets.registration) }, NO_CACHE),
    getScanWidgetConfig: ({ partner }) => reply(200, { result: configOf(partner, partner.widgets.scan) }, NO_CACHE),
    createRegistration: async ({ partner, body, ip }) => {
      await limits.registration(ip);
      return reply(202, { result: await domains.storeRegistration(onboardingPartnerOf(partner), body) });
    },
    confirmRegistration: async ({ partner, body }) => {
      const site = await domains.redeemRegistration(onboardingPartnerOf(partner), body.token);
      const brand = { name: partner.name, primary_color: partner.widgets.registration.primary_color };
      return reply(200, { result: { ...site, partner: brand } }, { 'Cache-Control': 'no-store' });
    },
    createWidgetScan: async ({ partner, body, ip }) => {
      // Per address, per partner and per scanned site: no page or crowd makes the scanner hammer one site.
      await limits.scan(ip, partner.id, body.url);
      return reply(202, { result: await domains.startScan(onboardingPartnerOf(partner), body) });
    },
    getWidgetScan: async ({ partner, params }) =>
      reply(200, { result: await domains.readScan(partner.id, params.scanToken) }, { 'Cache-Control': 'no-store' }),
  };
}
