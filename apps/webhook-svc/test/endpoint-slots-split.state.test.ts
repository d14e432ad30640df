import Redis from 'ioredis';
import { ReplicaRegistry } from '@platform/coordination';
import { uniqueName } from '@platform/testing';
import { EndpointSlots } from '../src/delivery/endpoint-slots';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
afterAll(() => redis.quit());

describe('per-endpoint caps across webhook workers (REDIS_URL)', () => {
  it('when three workers are live, then each allows ceil(cap / 3) attempts to an endpoint, and the whole cap again once it is alone', async () => {
    let now = 1_700_000_000_000;
    const options = { keyPrefix: `${uniqueName('wh')}:`, role: 'webhook-worker', ttlMs: 1_000, now: () => now };
    const [mine, b, c] = [0, 1, 2].map(() => new ReplicaRegistry(redis, options));
    for (const r of [b, c, mine]) await r.beat();
    const slots = new EndpointSlots<string>(10, 2, mine);
    expect(slots.perEndpoint).toBe(4);
    const taken = Array.from({ length: 5 }, (_, i) => slots.take('endpoint-1', `d${i}`));
    expect(taken).toEqual(['started', 'started', 'started', 'started', 'held']);

    // The other two stop beating: a TTL later this worker is alone and has the whole cap.
    now += 1_001;
    await mine.beat();
    expect(slots.perEndpoint).toBe(10);
    expect(slots.release('endpoint-1')).toBe('d4');
    expect(slots.take('endpoint-1', 'd4')).toBe('started');
    await mine.stop();
  });

  it('when there is no registry (no REDIS_URL), then the worker has the whole cap', () => {
    const slots = new EndpointSlots<string>(10, 2);
    expect(slots.perEndpoint).toBe(10);
  });
});
