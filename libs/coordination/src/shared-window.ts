import type { LimiterHost } from './shared-limiter';
import { WindowThrottle, type HitCounter } from './window-throttle';

export interface SharedWindowSettings {
  /** Names the throttle in Redis keys and metrics, e.g. "sign-in-email". */
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * WindowThrottle shared by every process: a counter per key and window in Redis (SET NX with the
 * window as its expiry, INCR, PTTL in one MULTI, the well-known fixed-window counter). While Redis
 * cannot be asked, this process counts alone at its share of the limit (as SharedLimiter does).
 */
export class SharedWindowThrottle implements HitCounter {
  private fallback?: { throttle: WindowThrottle; divisor: number };

  constructor(
    private readonly host: LimiterHost,
    private readonly settings: SharedWindowSettings,
  ) {}

  async hit(key: string): Promise<number | undefined> {
    if (!this.host.usable()) return this.inMemory(key);
    const redisKey = `${this.host.keyPrefix}window:${this.settings.name}:${key}`;
    try {
      const results = await this.host.redis
        .multi()
        .set(redisKey, '0', 'PX', this.settings.windowMs, 'NX')
        .incr(redisKey)
        .pttl(redisKey)
        .exec();
      const failed = results?.find(([err]) => err);
      if (!results || failed) throw failed?.[0] ?? new Error('transaction discarded');
      this.host.reported(true);
      const [count, ttl] = [Number(results[1][1]), Number(results[2][1])];
      return count <= this.settings.limit ? undefined : Math.max(1, Math.ceil(ttl / 1000));
    } catch (err) {
      this.host.reported(false, err);
      return this.inMemory(key);
    }
  }

  private inMemory(key: string): number | undefined {
    this.host.fellBack(this.settings.name);
    const divisor = Math.max(1, this.host.liveCount());
    if (this.fallback?.divisor !== divisor) {
      const limit = Math.max(1, Math.ceil(this.settings.limit / divisor));
      this.fallback = { throttle: new WindowThrottle(limit, this.settings.windowMs), divisor };
    }
    return this.fallback.throttle.hit(key);
  }
}
