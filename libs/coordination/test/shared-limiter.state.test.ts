import { freePort } from '@platform/launcher';
import { waitFor } from '@platform/testing';
import { TokenBucketLimiter, type RateDecision } from '../src';
import { capturedLogger, closedAfterEach, connected, ownRedis, uniquePrefix } from './support';

const { started, onClose } = closedAfterEach();

describe('a limit shared through Redis', () => {
  it('when calls of several costs come at a moving clock, then Redis decides exactly as the in-memory limiter (burst, refill, cost, headers)', async () => {
    let now = 1_700_000_000_000;
    const clock = () => now;
    const { coordination } = started({ keyPrefix: uniquePrefix(), now: clock });
    await connected(coordination);
    const shared = coordination.limiter({ name: 'key', perMinute: 60, burst: 10 });
    const local = new TokenBucketLimiter(60, 10, clock);
    // Costs and clock steps (ms) through a burst, refusals, refill and a cost above the burst.
    const steps: [number, number][] = [
      [1, 0],
      [3, 0],
      [5, 0],
      [2, 0],
      [1, 500],
      [1, 600],
      [4, 2_000],
      [20, 9_000],
      [1, 0],
      [1, 61_000],
      [7, 0],
    ];
    const seen: [RateDecision, RateDecision][] = [];
    for (const [cost, advance] of steps) {
      now += advance;
      expect(await shared.wouldAllow('k1')).toEqual(local.wouldAllow('k1'));
      seen.push([await shared.hit('k1', cost), local.hit('k1', cost)]);
    }
    for (const [fromRedis, fromMemory] of seen) expect(fromRedis).toEqual(fromMemory);
    expect(seen.map(([d]) => d.allowed)).toEqual([true, true, true, false, true, true, false, true, false, true, true]);
    expect(seen[3][0]).toMatchObject({ rateLimit: '"60-in-1min"; r=1; t=9', retryAfter: '1' });
    expect(shared.size).toBe(0);
  });

  it('when two processes limit the same key, then they spend one budget, and wouldAllow spends nothing', async () => {
    const keyPrefix = uniquePrefix();
    const a = started({ keyPrefix }).coordination;
    const b = started({ keyPrefix }).coordination;
    await Promise.all([connected(a), connected(b)]);
    const [onA, onB] = [a, b].map((c) => c.limiter({ name: 'key', perMinute: 600, burst: 20 }));
    for (let i = 0; i < 5; i++) await onB.wouldAllow('shared');
    const answers: boolean[] = [];
    for (let i = 0; i < 30; i++) answers.push((await (i % 2 ? onA : onB).hit('shared')).allowed);
    // 20 at once, and at most one more refilled (10 a second) while the 30 calls ran.
    const allowed = answers.filter(Boolean).length;
    expect(allowed).toBeGreaterThanOrEqual(20);
    expect(allowed).toBeLessThanOrEqual(21);
    expect((await onA.hit('another')).allowed).toBe(true);
  });
});

describe('when Redis cannot be asked', () => {
  it('then each process decides alone at its share of the limit, says so once, and goes back to Redis when it answers', async () => {
    const port = await freePort();
    let redis = await ownRedis(port);
    onClose(() => redis.kill());
    const keyPrefix = uniquePrefix();
    const { logger, lines } = capturedLogger();
    const { coordination, metric } = started({ url: redis.url, keyPrefix, logger, replicaTtlMs: 60_000 });
    const other = started({ url: redis.url, keyPrefix, replicaTtlMs: 60_000 }).coordination;
    await Promise.all([connected(coordination), connected(other)]);
    await coordination.replicas.beat();
    expect(coordination.replicas.liveCount).toBe(2);
    const limiter = coordination.limiter({ name: 'key', perMinute: 60, burst: 60 });
    expect((await limiter.hit('k', 10)).allowed).toBe(true);

    await redis.kill();
    await waitFor(() => !coordination.usable(), { what: 'the connection to notice' });
    // Its share: 60 / 2 live processes = 30 units, of a fresh in-memory bucket.
    const inMemory: RateDecision[] = [];
    for (let i = 0; i < 4; i++) inMemory.push(await limiter.hit('k', 10));
    expect(inMemory.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(inMemory[0].policy).toMatch(/^"30-in-1min"; q=30;/);
    expect(await metric('test_limits_shared')).toEqual([expect.objectContaining({ value: 0 })]);
    expect(await metric('test_limits_fallback_decisions_total')).toEqual([
      expect.objectContaining({ value: 4, labels: { limiter: 'key' } }),
    ]);
    expect(lines.filter((l) => l.level === 40 && /limits decided in this process/.test(l.msg))).toHaveLength(1);

    redis = await ownRedis(port);
    await waitFor(async () => (await limiter.hit('k', 1)).policy.startsWith('"60-in-1min"'), {
      what: 'limits shared again',
    });
    expect(await metric('test_limits_shared')).toEqual([expect.objectContaining({ value: 1 })]);
    expect(lines.filter((l) => l.level === 30 && l.msg === 'limits shared through Redis')).toHaveLength(2);
  });

  it('when Redis never answers (nothing listens), then limits are in memory from the start and nothing throws', async () => {
    const port = await freePort();
    const { coordination } = started({ url: `redis://127.0.0.1:${port}`, keyPrefix: uniquePrefix() });
    const limiter = coordination.limiter({ name: 'key', perMinute: 2, burst: 2 });
    const answers = [await limiter.hit('k'), await limiter.hit('k'), await limiter.hit('k')];
    expect(answers.map((d) => d.allowed)).toEqual([true, true, false]);
  });
});
