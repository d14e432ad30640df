import Redis from 'ioredis';
import { ReplicaRegistry, shareOf } from '../src';
import { REDIS_URL, uniquePrefix } from './support';

const redis = new Redis(REDIS_URL);
afterAll(() => redis.quit());

describe('the replica registry', () => {
  it('when replicas heartbeat, then each counts the live ones, and one whose heartbeat stopped is forgotten a TTL later', async () => {
    let now = 1_700_000_000_000;
    const options = { keyPrefix: uniquePrefix(), role: 'gateway', ttlMs: 1_000, now: () => now };
    const [a, b, c] = [0, 1, 2].map(() => new ReplicaRegistry(redis, options));
    const seen: number[] = [];
    a.onChange((count) => seen.push(count));
    for (const r of [a, b, c]) await r.beat();
    await a.beat();
    expect([a.liveCount, c.liveCount]).toEqual([3, 3]);
    expect(shareOf(8, a)).toBe(3);
    expect(shareOf(0, a)).toBe(0);

    // b stops beating (a crash); a and c go on.
    now += 600;
    await a.beat();
    await c.beat();
    expect(a.liveCount).toBe(3);
    now += 600;
    await a.beat();
    expect(a.liveCount).toBe(2);
    expect(shareOf(8, a)).toBe(4);

    // c stops cleanly: it leaves at once.
    await c.stop();
    await a.beat();
    expect(a.liveCount).toBe(1);
    expect(seen).toEqual([3, 2, 1]);
    await a.stop();
  });

  it('when a role has no other replica, then the count is one and the whole cap is this one', async () => {
    const alone = new ReplicaRegistry(redis, { keyPrefix: uniquePrefix(), role: 'webhook-worker', ttlMs: 1_000 });
    await alone.beat();
    expect(alone.liveCount).toBe(1);
    expect(shareOf(100, alone)).toBe(100);
    expect(shareOf(100, undefined)).toBe(100);
    await alone.stop();
  });
});
