import { retryOutcome } from '../src/domain/retry-outcome';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const policy = { scheduleMs: [0, 5_000, 300_000], jitter: 0 };
const fresh = { attemptCount: 0, finalAttempt: false };
const failedWith = (status: number | null, retryAfter?: string) => ({ ok: false, status, retryAfter });

describe('retry outcome', () => {
  it('when an attempt delivered, then the delivery succeeded, with no next attempt', () => {
    expect(retryOutcome(policy, fresh, { ok: true, status: 204 }, NOW)).toEqual({
      status: 'succeeded',
      nextAttemptAt: null,
      disableEndpoint: false,
    });
  });

  it('when an attempt fails and the schedule has steps left, then it is retried at the next step', () => {
    expect(retryOutcome(policy, fresh, failedWith(500), NOW)).toEqual({
      status: 'pending',
      nextAttemptAt: new Date(NOW + 5_000),
      disableEndpoint: false,
    });
    expect(retryOutcome(policy, { attemptCount: 1, finalAttempt: false }, failedWith(null), NOW)).toEqual({
      status: 'pending',
      nextAttemptAt: new Date(NOW + 300_000),
      disableEndpoint: false,
    });
  });

  it("when the schedule is spent, or the attempt was a manual retry's only one, then the delivery is given up", () => {
    const giveUp = { status: 'failed', nextAttemptAt: null, disableEndpoint: false };
    expect(retryOutcome(policy, { attemptCount: 2, finalAttempt: false }, failedWith(500), NOW)).toEqual(giveUp);
    expect(retryOutcome(policy, { attemptCount: 0, finalAttempt: true }, failedWith(500), NOW)).toEqual(giveUp);
  });

  it('when the endpoint answers 410 Gone, then the delivery is given up and the endpoint disabled, whatever is left of the schedule', () => {
    expect(retryOutcome(policy, fresh, failedWith(410), NOW)).toEqual({
      status: 'failed',
      nextAttemptAt: null,
      disableEndpoint: true,
    });
  });

  it('when a 429 or 503 says Retry-After, then the retry waits at least that long; other statuses ignore it', () => {
    expect(retryOutcome(policy, fresh, failedWith(429, '60'), NOW).nextAttemptAt).toEqual(new Date(NOW + 60_000));
    expect(
      retryOutcome(policy, fresh, failedWith(503, new Date(NOW + 120_000).toUTCString()), NOW).nextAttemptAt,
    ).toEqual(new Date(NOW + 120_000));
    expect(retryOutcome(policy, fresh, failedWith(500, '60'), NOW).nextAttemptAt).toEqual(new Date(NOW + 5_000));
  });
});
