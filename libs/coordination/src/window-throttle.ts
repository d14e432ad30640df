import type { Eventually } from './token-bucket';

/** What a fixed-window throttle offers, in memory (WindowThrottle) or shared (SharedWindowThrottle). */
export interface HitCounter {
  /** Counts one hit: the seconds to wait (Retry-After) when over the limit, else undefined. */
  hit(key: string): Eventually<number | undefined>;
}

/**
 * At most `limit` hits per key in a fixed window (sign-in links per e-mail address and per client
 * address). In memory, per process; at most `maxKeys` keys (past it the map starts afresh,
 * which only ever lets more through, never locks anyone out).
 */
export class WindowThrottle implements HitCounter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one hit: the seconds to wait (Retry-After) when over the limit, else undefined. */
  hit(key: string): number | undefined {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      if (this.windows.size >= this.maxKeys) this.windows.clear();
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.limit) return undefined;
    return Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
  }
}
