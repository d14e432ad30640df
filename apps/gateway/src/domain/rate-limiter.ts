import { createHash } from 'node:crypto';

const WINDOW_MS = 60_000;

interface Window {
  hits: number;
  resetAt: number;
  /** `"<limit>-in-1min"; q=..; w=60; pk=:..:`, the same for the whole life of the key. */
  policy: string;
}

export interface RateDecision {
  allowed: boolean;
  /** Header values (IETF draft-8, as express-rate-limit wrote them); retryAfter only when refused. */
  rateLimit: string;
  policy: string;
  retryAfter?: string;
}

/** express-rate-limit's partition key: base64 of the first 12 hex digits of sha256(key). */
const partitionKey = (key: string) => Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

/**
 * Per-key fixed one-minute window, in memory (each gateway instance counts its own share).
 * Keys idle for two windows are dropped, like express-rate-limit's memory store: the maps rotate
 * once per window, lazily on the next hit, so no timer is needed.
 */
export class FixedWindowLimiter {
  private current = new Map<string, Window>();
  private previous = new Map<string, Window>();
  private rotateAt: number;
  private readonly name: string;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {
    this.name = `"${limit}-in-1min"`;
    this.rotateAt = now() + WINDOW_MS;
  }

  hit(key: string): RateDecision {
    const now = this.now();
    if (now >= this.rotateAt) {
      this.previous = this.current;
      this.current = new Map();
      this.rotateAt = now + WINDOW_MS;
    }
    let window = this.current.get(key);
    if (!window) {
      window = this.previous.get(key) ?? {
        hits: 0,
        resetAt: now + WINDOW_MS,
        policy: `${this.name}; q=${this.limit}; w=60; pk=:${partitionKey(key)}:`,
      };
      this.previous.delete(key);
      this.current.set(key, window);
    }
    if (window.resetAt <= now) {
      window.hits = 0;
      window.resetAt = now + WINDOW_MS;
    }
    window.hits++;
    const resetSeconds = String(Math.max(0, Math.ceil((window.resetAt - now) / 1000)));
    const allowed = window.hits <= this.limit;
    return {
      allowed,
      rateLimit: `${this.name}; r=${allowed ? this.limit - window.hits : 0}; t=${resetSeconds}`,
      policy: window.policy,
      retryAfter: allowed ? undefined : resetSeconds,
    };
  }
}
