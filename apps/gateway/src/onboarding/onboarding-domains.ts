import { GATEWAY_ITSELF_PARTNER_ID } from '@platform/auth';
import {
  onboardingInternalRoutes,
  routeOf,
  type OnboardingPartner,
  type RegistrationBody,
  type WidgetScanBody,
} from '@platform/contracts';
import type { CallAs, ServiceCaller } from '@platform/service';

const store = routeOf(onboardingInternalRoutes, 'storeRegistration');
const redeem = routeOf(onboardingInternalRoutes, 'redeemRegistration');
const startScan = routeOf(onboardingInternalRoutes, 'startWidgetScan');
const readScan = routeOf(onboardingInternalRoutes, 'readWidgetScan');

/**
 * A widget's visitor is no partner's caller: the gateway asks for itself, naming the partner and
 * its onboarding settings in the call (it owns them), as /internal routes for the gateway take.
 */
const GATEWAY_ITSELF: CallAs = { partnerId: GATEWAY_ITSELF_PARTNER_ID, keyId: 'gateway:onboarding-widgets' };

/** What the widgets ask of domains-svc: its answers and errors (400, 404, 409, 429, 503) come back as they are. */
export class OnboardingDomains {
  constructor(private readonly domains: ServiceCaller) {}

  async storeRegistration(partner: OnboardingPartner, registration: RegistrationBody) {
    return (await this.domains.call(store, { as: GATEWAY_ITSELF, body: { partner, registration } })).result;
  }

  async redeemRegistration(partner: OnboardingPartner, token: string) {
    return (await this.domains.call(redeem, { as: GATEWAY_ITSELF, body: { partner, token } })).result;
  }

  async startScan(partner: OnboardingPartner, scan: WidgetScanBody) {
    return (await this.domains.call(startScan, { as: GATEWAY_ITSELF, body: { partner, scan } })).result;
  }

  async readScan(partnerId: string, scanToken: string) {
    return (await this.domains.call(readScan, { as: GATEWAY_ITSELF, params: { partnerId, scanToken } })).result;
  }
}
