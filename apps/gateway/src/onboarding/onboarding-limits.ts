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
 * What the widgets' writes may cost, per minute and per gateway instance: registrations per
 * client address; scans per client address, per partner and per scanned hostname (so no page,
 * partner or crowd of partners makes the scanner hammer one site). A request is counted only
 * when every limit it is under allows it, so a refused one spends nothing.
 */
export class OnboardingLimits {
  private readonly registrations: PerKeyLimiter;
  private readonly scans: { address: PerKeyLimiter; partner: PerKeyLimiter; hostname: PerKeyLimiter };

  constructor(settings: OnboardingLimitSettings) {
    this.registrations = perMinuteLimiter(settings.registrationsPerAddress, settings.maxKeys);
    this.scans = {
      address: perMinuteLimiter(settings.scansPerAddress, settings.maxKeys),
      partner: perMinuteLimiter(settings.scansPerPartner, settings.maxKeys),
      hostname: perMinuteLimiter(settings.scansPerHostname, settings.maxKeys),
    };
  }

  /** A registration from this client address, or 429 RATE.LIMITED with Retry-After. */
  registration(ip: string): void {
    spend([[this.registrations, clientAddressKey(ip)]]);
  }

  /** A scan of `hostname` for `partnerId` from this client address, or 429 RATE.LIMITED with Retry-After. */
  scan(ip: string, partnerId: string, hostname: string): void {
    spend([
      [this.scans.address, clientAddressKey(ip)],
      [this.scans.partner, partnerId],
      [this.scans.hostname, hostname],
    ]);
  }
}

function spend(limits: [PerKeyLimiter, string][]): void {
  for (const [limiter, key] of limits) {
    const retryAfter = limiter.wouldAllow(key).retryAfter;
    if (retryAfter !== undefined)
      throw new AppError('RATE.LIMITED', undefined, undefined, { 'Retry-After': retryAfter });
  }
  for (const [limiter, key] of limits) limiter.hit(key);
}
