import { SessionCache, type LoadedSession } from '../src/identity/session-cache';
import type { SignedInUser } from '../src/identity/signed-in-user';

const MINUTE = 60_000;
const hashOf = (n: number) => Buffer.alloc(32, n);

/** Pure logic of the session cache; `load` stands in for the database read (and touch). */
function setup(options: { maxEntries?: number } = {}) {
  const cache = new SessionCache({ idleMs: 120 * MINUTE, touchMs: MINUTE, maxEntries: options.maxEntries });
  cache.setCaching(true);
  let loads = 0;
  const session = (n: number, lastSeenAt = 0, expiresAt = 720 * MINUTE): LoadedSession => ({
    user: { sessionId: `s${n}`, userId: `u${n}`, partnerId: 'p1', stage: 'ACTIVE' } as SignedInUser,
    lastSeenAt,
    expiresAt,
  });
  const resolve = (n: number, now: number, loaded = session(n)) =>
    cache.resolve(hashOf(n), now, async () => {
      loads++;
      return loaded;
    });
  return { cache, session, resolve, loads: () => loads };
}

describe('SessionCache', () => {
  it('when a session is resolved again within the touch interval, then its copy answers; at the interval, it is read again', async () => {
    const { resolve, loads } = setup();
    await resolve(1, 0);
    await resolve(1, MINUTE - 1);
    expect(loads()).toBe(1);
    await resolve(1, MINUTE);
    expect(loads()).toBe(2);
  });

  it('when a copy is past its absolute expiry, then it is not used', async () => {
    const { resolve, session, loads } = setup();
    await resolve(1, 0, session(1, 0, 30_000));
    await resolve(1, 30_000, session(1, 0, 30_000));
    expect(loads()).toBe(2);
  });

  it('when the listener is down, then nothing is kept', async () => {
    const { cache, resolve, loads } = setup();
    cache.setCaching(false);
    await resolve(1, 0);
    await resolve(1, 1);
    expect(loads()).toBe(2);
  });

  it('when a session, its user or its partner is named, then its copies go and others stay', async () => {
    const { cache, resolve, loads } = setup();
    for (const id of ['s1', 'u1', 'p1', '*']) {
      await resolve(1, 0);
      await resolve(2, 0);
      const before = loads();
      cache.invalidate(id);
      await resolve(1, 0);
      await resolve(2, 0);
      expect(loads() - before).toBe(id === 'p1' || id === '*' ? 2 : 1);
    }
  });

  it('when a change is named while a read is under way, then that read is not kept and later requests do not join it', async () => {
    const { cache, session } = setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let loads = 0;
    const load = async () => {
      loads++;
      await gate;
      return session(1);
    };
    const first = cache.resolve(hashOf(1), 0, load);
    cache.invalidate('u1');
    const second = cache.resolve(hashOf(1), 0, load);
    release();
    await Promise.all([first, second]);
    expect(loads).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('when the cache is full, then the oldest copy makes room', async () => {
    const { cache, resolve, loads } = setup({ maxEntries: 2 });
    for (const n of [1, 2, 3]) await resolve(n, 0);
    expect(cache.size).toBe(2);
    await resolve(3, 0);
    await resolve(2, 0);
    expect(loads()).toBe(3);
    await resolve(1, 0);
    expect(loads()).toBe(4);
  });
});
