import { unpublished } from '../src/relay-batch';
import { nextPassStep } from '../src/relay-pass';
import { timerDelay, wakeAction } from '../src/relay-schedule';

describe('outbox relay: when a wake runs a pass', () => {
  const idle = { stopped: false, running: false, now: 10_000, retryAfter: 0 };

  it('when the relay is idle and no retry is due later, then a wake starts a pass', () => {
    expect(wakeAction(idle)).toBe('start a pass');
    expect(wakeAction({ ...idle, retryAfter: 10_000 })).toBe('start a pass');
  });

  it('when a pass runs, then a wake joins it (it claims again) instead of starting another', () => {
    expect(wakeAction({ ...idle, running: true })).toBe('join the pass');
    expect(wakeAction({ ...idle, running: true, retryAfter: 20_000 })).toBe('join the pass');
  });

  it('when a failed pass set a retry time still ahead, then a wake waits for it', () => {
    expect(wakeAction({ ...idle, retryAfter: 10_001 })).toBe('wait');
  });

  it('when the relay is stopped, then a wake does nothing', () => {
    expect(wakeAction({ ...idle, stopped: true, running: true })).toBe('ignore');
    expect(wakeAction({ ...idle, stopped: true })).toBe('ignore');
  });
});

describe('outbox relay: when the timer wakes it', () => {
  const at = { selfPoll: true, pollIntervalMs: 1_000, now: 50_000, retryAfter: 0 };

  it('when the relay polls by itself, then the timer fires after the poll interval', () => {
    expect(timerDelay(at)).toBe(1_000);
  });

  it('when a retry is due later than the poll interval, then the timer waits for the retry', () => {
    expect(timerDelay({ ...at, retryAfter: 53_000 })).toBe(3_000);
    expect(timerDelay({ ...at, selfPoll: false, retryAfter: 53_000 })).toBe(3_000);
  });

  it('when a sweep job polls it instead and no retry is pending, then no timer is set', () => {
    expect(timerDelay({ ...at, selfPoll: false })).toBeUndefined();
    expect(timerDelay({ ...at, selfPoll: false, retryAfter: 50_000 })).toBeUndefined();
  });

  it('when a sweep job polls it and a retry is pending, then the timer fires no sooner than the poll interval', () => {
    expect(timerDelay({ ...at, selfPoll: false, retryAfter: 50_200 })).toBe(1_000);
  });
});

describe('outbox relay: what a pass does next', () => {
  const ready = { stopped: false, failed: 0, connected: true, inFlight: 0, inFlightMax: 3 };

  it('when rows may be pending and a slot is free, then the pass claims a batch', () => {
    expect(nextPassStep(ready)).toBe('claim');
    expect(nextPassStep({ ...ready, inFlight: 2 })).toBe('claim');
  });

  it('when every slot holds a batch waiting for its confirms, then the pass waits for one to settle', () => {
    expect(nextPassStep({ ...ready, inFlight: 3 })).toBe('wait for a slot');
  });

  it('when the broker is away, then the pass claims (locks) nothing', () => {
    expect(nextPassStep({ ...ready, connected: false })).toBe('broker away');
  });

  it('when a batch failed or the relay stopped, then the pass ends', () => {
    expect(nextPassStep({ ...ready, failed: 1 })).toBe('end');
    expect(nextPassStep({ ...ready, stopped: true, connected: false })).toBe('end');
  });
});

describe('outbox relay: which rows stay pending', () => {
  it('when some publishes of a batch are rejected, then exactly their rows stay pending, with the reasons in order', () => {
    const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const results: PromiseSettledResult<void>[] = [
      { status: 'rejected', reason: new Error('unroutable') },
      { status: 'fulfilled', value: undefined },
      { status: 'rejected', reason: 'channel closed' },
    ];
    expect(unpublished(rows, results)).toEqual({ ids: ['a', 'c'], reasons: ['unroutable', 'channel closed'] });
  });

  it('when every publish is confirmed, then no row stays pending', () => {
    expect(unpublished([{ id: 'a' }], [{ status: 'fulfilled', value: undefined }])).toEqual({ ids: [], reasons: [] });
  });
});
