import {
  failureHeaders,
  failuresSoFar,
  invalidHeaders,
  retrySettings,
  routeFailure,
  type RetryPolicy,
} from '../src/retry-routing';

const policy: RetryPolicy = { maxAttempts: 4, retryQueues: ['q.retry.1', 'q.retry.2'], parkedQueue: 'q.parked' };

describe('consumer retry routing', () => {
  it('when a message fails for the first time, then it goes to retry step 1 as attempt 1', () => {
    expect(routeFailure(policy, 0)).toEqual({ to: 'retry', queue: 'q.retry.1', attempt: 1 });
  });

  it('when a message fails again, then it goes to the next retry step', () => {
    expect(routeFailure(policy, 1)).toEqual({ to: 'retry', queue: 'q.retry.2', attempt: 2 });
  });

  it('when there are more attempts than retry steps, then the last step repeats', () => {
    expect(routeFailure(policy, 2)).toEqual({ to: 'retry', queue: 'q.retry.2', attempt: 3 });
  });

  it('when the last attempt fails, then the message is parked', () => {
    expect(routeFailure(policy, 3)).toEqual({ to: 'parked', queue: 'q.parked', attempt: 4 });
    expect(routeFailure(policy, 7)).toEqual({ to: 'parked', queue: 'q.parked', attempt: 8 });
  });

  it('when only one attempt is allowed, then the first failure parks the message', () => {
    expect(routeFailure({ ...policy, maxAttempts: 1 }, 0)).toEqual({ to: 'parked', queue: 'q.parked', attempt: 1 });
  });

  it('when a delivery carries an attempt header, then it counts the failures so far, and a missing or unreadable one counts none', () => {
    expect(failuresSoFar({ 'x-attempt': 2 })).toBe(2);
    expect(failuresSoFar({ 'x-attempt': '3' })).toBe(3);
    expect(failuresSoFar({})).toBe(0);
    expect(failuresSoFar({ 'x-attempt': 'soon' })).toBe(0);
  });

  it('when a message is forwarded after a failure, then it carries its attempt and error, and a parked one the reason', () => {
    const err = new Error('boom');
    expect(failureHeaders({ to: 'retry', queue: 'q.retry.1', attempt: 1 }, err)).toEqual({
      'x-attempt': 1,
      'x-last-error': 'boom',
    });
    expect(failureHeaders({ to: 'parked', queue: 'q.parked', attempt: 4 }, err)).toEqual({
      'x-attempt': 4,
      'x-last-error': 'boom',
      'x-parked-reason': 'attempts exhausted',
    });
    expect(invalidHeaders('not json')).toEqual({ 'x-parked-reason': 'invalid', 'x-last-error': 'not json' });
  });

  it('when no attempts are given, then they are one more than the retry delays, and at least one', () => {
    expect(retrySettings([10, 20], undefined)).toEqual({ retryDelaysMs: [10, 20], maxAttempts: 3 });
    expect(retrySettings(undefined, undefined)).toEqual({ retryDelaysMs: [1_000, 5_000, 30_000], maxAttempts: 4 });
    expect(retrySettings([], 0)).toEqual({ retryDelaysMs: [], maxAttempts: 1 });
  });

  it('when retries are asked for without any retry delay, then the settings are refused', () => {
    expect(() => retrySettings([], 2)).toThrow('retries need at least one retry delay');
  });
});
