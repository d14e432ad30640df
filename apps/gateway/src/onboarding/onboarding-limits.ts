import type { Coordination } from '@platform/coordination';
import { AppError } from '@platform/http';
import { clientAddressKey } from '../domain/failed-auth-throttle';
import { perMinuteLimiter, type PerKeyLimiter } from '../domain/public-limits';

export interface OnboardingLimitSettings {
  registrationsPerAddress: number;
  scansPerAddress: number;
  scansPerPartner: number;
  scansPerHostname: number;
  /** Client addresses (and scanned hostnames) kept at most: bounded memory under a spread flood. */
  maxKeys: number;
}

/**
 * What the widgets' writes may cost, per minute (for all gateways when they share limits through Redis): registrations per
 * client address; scans per client address, per partner and per scanned hostname (so no page,
 * partner or crowd of partners makes the scanner hammer one site). A request is counted only
 * when every limit it is under allows it, so a refused one spends nothing.
 */
export class OnboardingLimits {
  private readonly registrations: PerKeyLimiter;
  private readonly scans: { address: PerKeyLimiter; partner: PerKeyLimiter; hostname: PerKeyLimiter };

  constructor(settings: OnboardingLimitSettings, coordination?: Coordination) {
    const limit = (name: string, perMinute: number) =>
      perMinuteLimiter(coordination, `onboarding-${name}`, perMinute, settings.maxKeys);
    this.registrations = limit('registrations-address', settings.registrationsPerAddress);
    this.scans = {
      address: limit('scans-address', settings.scansPerAddress),
      partner: limit('scans-partner', settings.scansPerPartner),
      hostname: limit('scans-hostname', settings.scansPerHostname),
    };
  }

  /** A registration from this client address, or 429 RATE.LIMITED with Retry-After. */
  registration(ip: string): Promise<void> {
    return spend([[this.registrations, clientAddressKey(ip)]]);
  }

  /** A scan of `hostname` for `partnerId` from this client address, or 429 RATE.LIMITED with Retry-After. */
  scan(ip: string, partnerId: string, hostname: string): Promise<void> {
    return spend([
      [this.scans.address, clientAddressKey(ip)],
      [this.scans.partner, partnerId],
      [this.scans.hostname, hostname],
    ]);
  }
}

/** Spends on every limit once all of them allow (shared limits are asked at once, not one after another). */
async function spend(limits: [PerKeyLimiter, string][]): Promise<void> {
  const decisions = await Promise.all(limits.map(([limiter, key]) => limiter.wouldAllow(key)));
  const refused = decisions.find((d) => d.retryAfter !== undefined);
  if (refused) throw new AppError('RATE.LIMITED', undefined, undefined, { 'Retry-After': refused.retryAfter! });
  await Promise.all(limits.map(([limiter, key]) => limiter.hit(key)));
}
