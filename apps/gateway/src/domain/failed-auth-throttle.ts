import { isIP } from 'node:net';
import { TokenBucketLimiter, type Eventually, type PerKeyLimiter, type RateDecision } from '@platform/coordination';

/** IPv4 clients on a dual-stack socket appear as ::ffff:a.b.c.d. */
const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * The address failures are counted under: an IPv4 address, or an IPv6 address's /64 (one
 * customer's network is a /64, so rotating addresses inside it does not reset the count).
 */
export function clientAddressKey(ip: string): string {
  const address = ip.split('%')[0];
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Failed authentications per client address, `limitPerMinute` of them at once and then as fast as
 * they come back (the rate limiter's token bucket, its burst the whole minute). Only
 * failures are counted and only failures are refused: past the limit a failure answers 429
 * instead of 401, while a valid key from the same address goes on as before. In memory unless
 * given a shared limiter (libs/coordination: one count for every gateway).
 */
export class FailedAuthThrottle {
  private readonly window: PerKeyLimiter;

  constructor(
    limitPerMinute: number,
    /** Told of each failure, and whether it was refused (429) rather than answered 401. */
    private readonly onFailure: (throttled: boolean) => void = () => undefined,
    now?: () => number,
    shared?: PerKeyLimiter,
  ) {
    this.window = shared ?? new TokenBucketLimiter(limitPerMinute, limitPerMinute, now);
  }

  /** Counts one failure from ip: the seconds to wait (Retry-After) once over the limit, else undefined. */
  failed(ip: string): Eventually<string | undefined> {
    const decided = this.window.hit(clientAddressKey(ip));
    return decided instanceof Promise ? decided.then(this.counted) : this.counted(decided);
  }

  private readonly counted = (decision: RateDecision) => {
    this.onFailure(decision.retryAfter !== undefined);
    return decision.retryAfter;
  };
}
