import { freePort } from '@platform/launcher';
import { waitFor } from '@platform/testing';
import { windowThrottle } from '../src';
import { closedAfterEach, connected, uniquePrefix } from './support';

const { started } = closedAfterEach();

describe('a fixed-window throttle shared through Redis (sign-in links, TOTP codes)', () => {
  it('when two processes count the same key, then the limit holds for both together, with the seconds left in the window', async () => {
    const keyPrefix = uniquePrefix();
    const [a, b] = [started({ keyPrefix }).coordination, started({ keyPrefix }).coordination];
    await Promise.all([connected(a), connected(b)]);
    const settings = { name: 'sign-in-email', limit: 3, windowMs: 900_000 };
    const [onA, onB] = [windowThrottle(a, settings), windowThrottle(b, settings)];
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await (i % 2 ? onA : onB).hit('who@a.test'));
    expect(answers.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    for (const refused of answers.slice(3)) {
      expect(refused).toBeGreaterThan(890);
      expect(refused).toBeLessThanOrEqual(900);
    }
    expect(await onA.hit('other@a.test')).toBeUndefined();
  });

  it('when Redis cannot be asked, then each process counts alone at its share of the limit', async () => {
    const port = await freePort();
    const { coordination } = started({ url: `redis://127.0.0.1:${port}`, keyPrefix: uniquePrefix() });
    await waitFor(() => !coordination.usable(), { what: 'not connected' });
    const throttle = windowThrottle(coordination, { name: 'sign-in-client', limit: 2, windowMs: 60_000 });
    expect([await throttle.hit('k'), await throttle.hit('k'), await throttle.hit('k')]).toEqual([
      undefined,
      undefined,
      60,
    ]);
  });

  it('when there is no coordination (no REDIS_URL), then it counts in memory on the given clock', () => {
    let now = 0;
    const throttle = windowThrottle(undefined, { name: 'x', limit: 1, windowMs: 60_000, now: () => now });
    expect([throttle.hit('k'), throttle.hit('k')]).toEqual([undefined, 60]);
    now += 60_000;
    expect(throttle.hit('k')).toBeUndefined();
  });
});
