import { windowThrottle, type Coordination, type HitCounter } from '@platform/coordination';

/** Sign-in links per e-mail address and per client address, and TOTP codes tried per user, in fixed windows. */
export type SignInThrottles = Record<'perEmail' | 'perClient' | 'totpAttempts', HitCounter>;

/** The throttles: counted by every gateway together with a coordination (REDIS_URL), else in this one's memory on `now`. */
export function signInThrottles(
  settings: { linksPerEmail: number; linksPerClient: number; coordination?: Coordination },
  windowMs: number,
  now: () => number,
): SignInThrottles {
  const throttle = (name: string, limit: number) =>
    windowThrottle(settings.coordination, { name, limit, windowMs, now });
  return {
    perEmail: throttle('sign-in-email', settings.linksPerEmail),
    perClient: throttle('sign-in-client', settings.linksPerClient),
    totpAttempts: throttle('totp-attempts', 10),
  };
}
