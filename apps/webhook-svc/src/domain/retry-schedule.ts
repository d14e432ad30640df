/** When the next automatic attempt is due, given how the last one ended; undefined: no more attempts. */
export interface RetryPolicy {
  /** Delay before attempt n+1 (index n), the first being 0: e.g. 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
  scheduleMs: number[];
  /** ± this fraction of each delay, so endpoints that failed together are not retried in one burst. */
  jitter: number;
  random?: () => number;
}

/**
 * The delay before the next attempt after `attemptsMade` attempts, or undefined when the schedule
 * is spent. A Retry-After the endpoint sent (429 or 503) is honoured as a minimum, capped at the
 * schedule's longest step so an endpoint cannot park a delivery for days.
 */
export function nextDelayMs(policy: RetryPolicy, attemptsMade: number, retryAfterMs?: number): number | undefined {
  if (attemptsMade >= policy.scheduleMs.length) return undefined;
  const base = policy.scheduleMs[attemptsMade];
  const random = policy.random ?? Math.random;
  const jittered = Math.max(0, Math.round(base * (1 + policy.jitter * (2 * random() - 1))));
  if (retryAfterMs === undefined) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, Math.max(...policy.scheduleMs)));
}

/** Retry-After as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1_000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
