import type { Coordination } from '@platform/coordination';
import type { Kysely } from '@platform/db';
import type { ServiceCaller } from '@platform/service';
import type { Config } from '../config';
import type { GatewayDb } from '../db/tables';
import { OnboardingDomains } from './onboarding-domains';
import { OnboardingLimits } from './onboarding-limits';
import type { OnboardingDeps } from './onboarding-requests';
import { WidgetPartners } from './widget-partners';

/** The onboarding widgets' side of the gateway: its partners' settings, its limits, its calls to domains-svc. */
export type OnboardingServices = Omit<OnboardingDeps, 'checkAnswersWith'>;

export const onboardingServices = (
  db: Kysely<GatewayDb>,
  config: Config,
  domains: ServiceCaller,
  now: () => number,
  coordination?: Coordination,
): OnboardingServices => ({
  partners: new WidgetPartners(db, now),
  domains: new OnboardingDomains(domains),
  limits: new OnboardingLimits(
    {
      registrationsPerAddress: config.ONBOARDING_REGISTRATIONS_PER_ADDRESS,
      scansPerAddress: config.ONBOARDING_SCANS_PER_ADDRESS,
      scansPerPartner: config.ONBOARDING_SCANS_PER_PARTNER,
      scansPerHostname: config.ONBOARDING_SCANS_PER_HOSTNAME,
      maxKeys: config.PUBLIC_RATE_LIMIT_MAX_ADDRESSES,
    },
    coordination,
  ),
});
