/** Answers that mean "not now": the request was not done and may be sent again (see docs/api.md). */
const RETRY_STATUSES = new Set([429, 503]);

export interface RetryOptions {
  /** How many times one request is sent again at most (default 3; 0 turns retries off). */
  retries?: number;
  /** The most one request waits between its attempts, all together (default 60 s). A longer Retry-After ends the retries. */
  maxWaitMs?: number;
  /** First back-off when an answer has no Retry-After; it doubles with each attempt (default 500 ms). */
  baseDelayMs?: number;
}

export const DEFAULT_RETRIES: Required<RetryOptions> = { retries: 3, maxWaitMs: 60_000, baseDelayMs: 500 };

/** Retry-After in milliseconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before attempt `attempt + 1`: at least what Retry-After asks, plus up to 10% (at most
 * 1 s) so clients told the same moment do not all come back at once; without it, an exponential back-off
 * with jitter (half fixed, half random).
 */
export function retryDelayMs(response: Response, attempt: number, baseDelayMs: number, random = Math.random): number {
  const asked = retryAfterMs(response.headers.get('Retry-After'));
  if (asked !== undefined) return asked + Math.round(random() * Math.min(1000, asked * 0.1));
  const backoff = baseDelayMs * 2 ** (attempt - 1);
  return Math.round(backoff / 2 + random() * (backoff / 2));
}

const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });

/**
 * Sends a request, and again on 429/503 after the wait the answer asks for, while attempts and the
 * wait budget last; then hands back the last answer. Each attempt sends a copy of the same request
 * (same headers, so a write keeps its Idempotency-Key).
 */
export function retrying(
  send: (request: Request) => Promise<Response>,
  options: Required<RetryOptions>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const response = await send(request.clone());
      if (!RETRY_STATUSES.has(response.status) || attempt > options.retries) return response;
      const delay = retryDelayMs(response, attempt, options.baseDelayMs);
      if (waited + delay > options.maxWaitMs) return response;
      // This answer is dropped: free its connection before waiting.
      await response.body?.cancel();
      await sleep(delay, request.signal);
      waited += delay;
    }
  };
}
