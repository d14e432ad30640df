import { createHash } from 'node:crypto';
import { FixedWindowLimiter } from '../src/domain/rate-limiter';

describe('per-key fixed-window rate limiter', () => {
  let now = 1_000_000;
  const clock = () => now;

  it('when a key stays within its limit, then each hit is allowed with the remaining count and seconds to reset', () => {
    const limiter = new FixedWindowLimiter(3, clock);
    const first = limiter.hit('key-1');
    expect(first).toMatchObject({ allowed: true, rateLimit: '"3-in-1min"; r=2; t=60', retryAfter: undefined });
    now += 15_500;
    expect(limiter.hit('key-1').rateLimit).toBe('"3-in-1min"; r=1; t=45');
  });

  it('when the policy header is built, then it carries the same partition key express-rate-limit used', () => {
    const pk = Buffer.from(createHash('sha256').update('key-2').digest('hex').slice(0, 12)).toString('base64');
    expect(new FixedWindowLimiter(5, clock).hit('key-2').policy).toBe(`"5-in-1min"; q=5; w=60; pk=:${pk}:`);
  });

  it('when a key exceeds its limit, then it is refused with Retry-After until its window resets, and other keys are unaffected', () => {
    const limiter = new FixedWindowLimiter(2, clock);
    limiter.hit('busy');
    limiter.hit('busy');
    now += 10_000;
    expect(limiter.hit('busy')).toMatchObject({ allowed: false, rateLimit: '"2-in-1min"; r=0; t=50', retryAfter: '50' });
    expect(limiter.hit('other').allowed).toBe(true);
    now += 50_000;
    expect(limiter.hit('busy')).toMatchObject({ allowed: true, rateLimit: '"2-in-1min"; r=1; t=60' });
  });

  it('when the maps rotate while a key is in use, then its count carries over', () => {
    const limiter = new FixedWindowLimiter(2, clock);
    now += 30_000;
    limiter.hit('steady');
    now += 31_000; // past the rotation, still inside the key's own window
    limiter.hit('steady');
    expect(limiter.hit('steady').allowed).toBe(false);
  });
});
