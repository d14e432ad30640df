import Redis from 'ioredis';
import { ReplicaRegistry } from '@platform/coordination';
import { uniqueName } from '@platform/testing';
import { FairShare } from '../src/domain/fair-share';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
afterAll(() => redis.quit());

describe('the fair share split across live gateways (replica registry in Redis)', () => {
  it('when a second gateway joins, then each takes half the caps; when it leaves, the waiting calls are admitted at once', async () => {
    const options = { keyPrefix: `${uniqueName('fs')}:`, role: 'gateway', ttlMs: 60_000 };
    const [mine, other] = [new ReplicaRegistry(redis, options), new ReplicaRegistry(redis, options)];
    await mine.beat();
    const shares = new FairShare({ maxInFlight: 4, serviceMaxInFlight: 4, maxQueued: 4, queueTimeoutMs: 60_000 }, mine);
    expect(shares.limits).toEqual({ maxInFlight: 4, serviceMaxInFlight: 4, maxQueued: 4 });

    await other.beat();
    await mine.beat();
    expect(shares.limits).toEqual({ maxInFlight: 2, serviceMaxInFlight: 2, maxQueued: 2 });
    expect([1, 2, 3].map(() => shares.tryAcquire('p domains'))).toEqual([true, true, false]);
    const waiting = [shares.wait('p domains'), shares.wait('p domains')];
    expect(await shares.wait('p domains')).toBe(false);
    expect(shares.usage('p domains')).toEqual({ inFlight: 2, queued: 2 });

    await other.stop();
    await mine.beat();
    expect(shares.limits).toEqual({ maxInFlight: 4, serviceMaxInFlight: 4, maxQueued: 4 });
    expect(await Promise.all(waiting)).toEqual([true, true]);
    expect(shares.usage('p domains')).toEqual({ inFlight: 4, queued: 0 });
    for (let i = 0; i < 4; i++) shares.release('p domains');
    expect(shares.usage('p domains')).toEqual({ inFlight: 0, queued: 0 });
    await mine.stop();
  });
});
