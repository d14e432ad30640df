import { nextDelayMs, retryAfterMs, type RetryPolicy } from './retry-schedule';

/** What becomes of a delivery after an attempt, and of its endpoint. */
interface RetryOutcome {
  /** succeeded: delivered; pending: retried at nextAttemptAt; failed: given up. */
  status: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: Date | null;
  /** The endpoint is disabled at once (it answered 410 Gone). */
  disableEndpoint: boolean;
}

const GIVE_UP: RetryOutcome = { status: 'failed', nextAttemptAt: null, disableEndpoint: false };

/**
 * After an attempt: delivered on a 2xx; given up on a 410 (which disables the endpoint), after a
 * manual retry's one attempt, or when the schedule is spent; otherwise retried at the schedule's
 * next step, no sooner than a Retry-After sent with a 429 or 503.
 */
export function retryOutcome(
  policy: RetryPolicy,
  delivery: { attemptCount: number; finalAttempt: boolean },
  answer: { ok: boolean; status: number | null; retryAfter?: string | string[] },
  now = Date.now(),
): RetryOutcome {
  if (answer.ok) return { status: 'succeeded', nextAttemptAt: null, disableEndpoint: false };
  if (answer.status === 410) return { ...GIVE_UP, disableEndpoint: true };
  if (delivery.finalAttempt) return GIVE_UP;
  const hint = answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.retryAfter, now) : undefined;
  const delay = nextDelayMs(policy, delivery.attemptCount + 1, hint);
  return delay === undefined
    ? GIVE_UP
    : { status: 'pending', nextAttemptAt: new Date(now + delay), disableEndpoint: false };
}
