import { FairShare } from '../src/domain/fair-share';

describe("fair share: a cap on a partner's calls in flight per service, with a queue and a deadline", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('when a lane is under its cap, then a slot is taken synchronously, and the lane is dropped once idle', () => {
    const shares = new FairShare({ maxInFlight: 2, serviceMaxInFlight: 2, maxQueued: 10, queueTimeoutMs: 1000 });
    expect(shares.tryAcquire('a domains')).toBe(true);
    expect(shares.tryAcquire('a domains')).toBe(true);
    expect(shares.tryAcquire('a domains')).toBe(false);
    expect(shares.usage('a domains')).toEqual({ inFlight: 2, queued: 0 });
    shares.release('a domains');
    shares.release('a domains');
    expect(shares.usage('a domains')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('when one partner is at its cap, then another partner and another service of the same partner still get slots at once', () => {
    const shares = new FairShare({ maxInFlight: 1, serviceMaxInFlight: 1, maxQueued: 10, queueTimeoutMs: 1000 });
    expect(shares.tryAcquire('b domains')).toBe(true);
    expect(shares.tryAcquire('b domains')).toBe(false);
    expect(shares.tryAcquire('a domains')).toBe(true);
    expect(shares.tryAcquire('b billing')).toBe(true);
  });

  it('when calls wait, then a released slot goes to the first in line, in order', async () => {
    const shares = new FairShare({ maxInFlight: 1, serviceMaxInFlight: 1, maxQueued: 10, queueTimeoutMs: 1000 });
    shares.tryAcquire('b domains');
    const order: string[] = [];
    const first = shares.wait('b domains').then((ok) => order.push(`first ${ok}`));
    const second = shares.wait('b domains').then((ok) => order.push(`second ${ok}`));
    shares.release('b domains');
    await first;
    expect(order).toEqual(['first true']);
    expect(shares.usage('b domains')).toEqual({ inFlight: 1, queued: 1 });
    shares.release('b domains');
    await second;
    expect(order).toEqual(['first true', 'second true']);
  });

  it('when a call waits past the deadline, then it is refused and leaves the queue, and later releases skip it', async () => {
    const shares = new FairShare({ maxInFlight: 1, serviceMaxInFlight: 1, maxQueued: 10, queueTimeoutMs: 500 });
    shares.tryAcquire('b domains');
    const late = shares.wait('b domains');
    jest.advanceTimersByTime(500);
    await expect(late).resolves.toBe(false);
    expect(shares.usage('b domains')).toEqual({ inFlight: 1, queued: 0 });
    shares.release('b domains');
    expect(shares.usage('b domains')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('when calls joined the queue at different times, then each is refused at its own deadline', async () => {
    const shares = new FairShare({ maxInFlight: 1, serviceMaxInFlight: 1, maxQueued: 10, queueTimeoutMs: 500 });
    shares.tryAcquire('b domains');
    const outcomes: string[] = [];
    void shares.wait('b domains').then((ok) => outcomes.push(`early ${ok}`));
    jest.advanceTimersByTime(300);
    void shares.wait('b domains').then((ok) => outcomes.push(`late ${ok}`));
    await jest.advanceTimersByTimeAsync(200);
    expect(outcomes).toEqual(['early false']);
    expect(shares.usage('b domains').queued).toBe(1);
    await jest.advanceTimersByTimeAsync(300);
    expect(outcomes).toEqual(['early false', 'late false']);
  });

  it('when the queue is full, then one more call is refused at once', async () => {
    const shares = new FairShare({ maxInFlight: 1, serviceMaxInFlight: 1, maxQueued: 1, queueTimeoutMs: 1000 });
    shares.tryAcquire('b domains');
    void shares.wait('b domains');
    await expect(shares.wait('b domains')).resolves.toBe(false);
    expect(shares.usage('b domains')).toEqual({ inFlight: 1, queued: 1 });
  });

  it('when calls are weighed, then a lane holds their weight up to the cap, a call heavier than the cap goes alone, and none overtakes the head of the line', async () => {
    const shares = new FairShare({ maxInFlight: 8, serviceMaxInFlight: 8, maxQueued: 10, queueTimeoutMs: 1000 });
    expect(shares.tryAcquire('b domains', 10)).toBe(true);
    expect(shares.tryAcquire('b domains', 1)).toBe(false);
    const order: string[] = [];
    const heavy = shares.wait('b domains', 10).then((ok) => order.push(`heavy ${ok}`));
    const light = shares.wait('b domains', 1).then((ok) => order.push(`light ${ok}`));
    expect(shares.tryAcquire('b domains', 1)).toBe(false);
    shares.release('b domains', 10);
    await heavy;
    // The heavy call holds the lane alone: the light one behind it still waits.
    expect(order).toEqual(['heavy true']);
    expect(shares.usage('b domains')).toEqual({ inFlight: 10, queued: 1 });
    shares.release('b domains', 10);
    await light;
    expect(order).toEqual(['heavy true', 'light true']);
    expect(shares.tryAcquire('b domains', 7)).toBe(true);
    expect(shares.tryAcquire('b domains', 1)).toBe(false);
    shares.release('b domains', 7);
    shares.release('b domains', 1);
    expect(shares.usage('b domains')).toEqual({ inFlight: 0, queued: 0 });
  });

  it('when a heavy call at the head of the line is refused at its deadline, then the lighter calls behind it that fit are admitted', async () => {
    const shares = new FairShare({ maxInFlight: 8, serviceMaxInFlight: 8, maxQueued: 10, queueTimeoutMs: 500 });
    shares.tryAcquire('b domains', 4);
    const heavy = shares.wait('b domains', 10);
    jest.advanceTimersByTime(100);
    const light = shares.wait('b domains', 2);
    await jest.advanceTimersByTimeAsync(400);
    await expect(heavy).resolves.toBe(false);
    await expect(light).resolves.toBe(true);
    expect(shares.usage('b domains')).toEqual({ inFlight: 6, queued: 0 });
  });

  it('when a partner is alone past its share, then it borrows up to the service cap; another partner within its share still goes at once', () => {
    const shares = new FairShare({ maxInFlight: 2, serviceMaxInFlight: 4, maxQueued: 10, queueTimeoutMs: 1000 });
    for (let i = 0; i < 4; i++) expect(shares.tryAcquire('b domains', 1, 'domains')).toBe(true);
    expect(shares.tryAcquire('b domains', 1, 'domains')).toBe(false);
    // Another service is another cap.
    expect(shares.tryAcquire('b billing', 1, 'billing')).toBe(true);
    expect(shares.tryAcquire('a domains', 1, 'domains')).toBe(true);
    expect(shares.tryAcquire('a domains', 1, 'domains')).toBe(true);
    expect(shares.usage('b domains')).toEqual({ inFlight: 4, queued: 0 });
  });

  it('when two partners both want more than their share, then neither borrows: each is held to its own, in its own line', async () => {
    const shares = new FairShare({ maxInFlight: 2, serviceMaxInFlight: 4, maxQueued: 10, queueTimeoutMs: 1000 });
    for (let i = 0; i < 4; i++) shares.tryAcquire('b domains', 1, 'domains');
    shares.tryAcquire('a domains', 1, 'domains');
    shares.tryAcquire('a domains', 1, 'domains');
    const order: string[] = [];
    const a = shares.wait('a domains', 1, 'domains').then((ok) => order.push(`a ${ok}`));
    expect(shares.tryAcquire('b domains', 1, 'domains')).toBe(false);
    const b = shares.wait('b domains', 1, 'domains').then((ok) => order.push(`b ${ok}`));
    // B gives back what it borrowed: with A waiting, B's next call only comes once B is within its own share.
    shares.release('b domains');
    shares.release('b domains');
    await Promise.resolve();
    expect(order).toEqual([]);
    shares.release('b domains');
    await b;
    expect(order).toEqual(['b true']);
    shares.release('a domains');
    await a;
    expect(order).toEqual(['b true', 'a true']);
    expect(shares.usage('a domains')).toEqual({ inFlight: 2, queued: 0 });
    expect(shares.usage('b domains')).toEqual({ inFlight: 2, queued: 0 });
  });

  it('when the partner that borrowed gives its calls back, then the one partner still waiting borrows the room they free', async () => {
    const shares = new FairShare({ maxInFlight: 2, serviceMaxInFlight: 4, maxQueued: 10, queueTimeoutMs: 1000 });
    for (let i = 0; i < 4; i++) shares.tryAcquire('b domains', 1, 'domains');
    shares.tryAcquire('a domains', 1, 'domains');
    shares.tryAcquire('a domains', 1, 'domains');
    const a = shares.wait('a domains', 1, 'domains');
    for (let i = 0; i < 4; i++) shares.release('b domains');
    await expect(a).resolves.toBe(true);
    expect(shares.usage('a domains')).toEqual({ inFlight: 3, queued: 0 });
  });
});
