import { errorText } from './error-text';

export const ATTEMPT_HEADER = 'x-attempt';
export const PARKED_REASON_HEADER = 'x-parked-reason';
export const LAST_ERROR_HEADER = 'x-last-error';

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

export interface RetryPolicy {
  /** Handler runs before a message is parked. */
  maxAttempts: number;
  /** One delay queue per step, in order; the last one repeats. */
  retryQueues: string[];
  parkedQueue: string;
}

/** Where a message goes after its handler failed: its attempt number and the queue to forward it to. */
export type FailureRoute = { to: 'retry' | 'parked'; queue: string; attempt: number };

/** Resolves the retry settings: maxAttempts defaults to one more than the delays (the last delay repeats). */
export function retrySettings(
  retryDelaysMs: number[] | undefined,
  maxAttempts: number | undefined,
): { retryDelaysMs: number[]; maxAttempts: number } {
  const delays = retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const attempts = Math.max(1, maxAttempts ?? delays.length + 1);
  if (attempts > 1 && delays.length === 0) throw new Error('retries need at least one retry delay');
  return { retryDelaysMs: delays, maxAttempts: attempts };
}

/** Handler failures so far, from a delivery's headers (absent or unreadable: none). */
export function failuresSoFar(headers: Record<string, unknown>): number {
  return Number(headers[ATTEMPT_HEADER] ?? 0) || 0;
}

/** After `failures` earlier failures the handler failed again: retry step N (N = this attempt, capped at the last step), or parked once attempts run out. */
export function routeFailure(policy: RetryPolicy, failures: number): FailureRoute {
  const attempt = failures + 1;
  if (attempt < policy.maxAttempts)
    return { to: 'retry', queue: policy.retryQueues[Math.min(attempt, policy.retryQueues.length) - 1], attempt };
  return { to: 'parked', queue: policy.parkedQueue, attempt };
}

/** The headers a failed message is forwarded with (over its own). */
export function failureHeaders(route: FailureRoute, err: unknown): Record<string, unknown> {
  const extra = { [ATTEMPT_HEADER]: route.attempt, [LAST_ERROR_HEADER]: errorText(err) };
  return route.to === 'parked' ? { ...extra, [PARKED_REASON_HEADER]: 'attempts exhausted' } : extra;
}

/** The headers an invalid message is parked with: it is never retried. */
export function invalidHeaders(err: unknown): Record<string, unknown> {
  return { [PARKED_REASON_HEADER]: 'invalid', [LAST_ERROR_HEADER]: errorText(err) };
}
