import { createHash } from 'node:crypto';
import { TokenBucketLimiter, defaultBurst } from '@platform/coordination';
import { BULK_COST, WRITE_COST, requestCost } from '../src/domain/request-cost';

describe('per-key token-bucket rate limiter, weighed by cost', () => {
  let now = 1_000_000;
  const clock = () => now;

  it('when a key stays within its limit, then each hit is allowed with the units left and the seconds until the bucket is full', () => {
    const limiter = new TokenBucketLimiter(3, 3, clock);
    expect(limiter.hit('key-1')).toMatchObject({
      allowed: true,
      rateLimit: '"3-in-1min"; r=2; t=20',
      retryAfter: undefined,
    });
    expect(limiter.hit('key-1').rateLimit).toBe('"3-in-1min"; r=1; t=40');
    now += 20_000; // one unit came back
    expect(limiter.hit('key-1').rateLimit).toBe('"3-in-1min"; r=1; t=40');
  });

  it('when a key is only asked about, then nothing is spent and no state is kept; a spent key is refused when asked', () => {
    const limiter = new TokenBucketLimiter(1, 1, clock);
    expect(limiter.wouldAllow('asked').allowed).toBe(true);
    expect(limiter.wouldAllow('asked').allowed).toBe(true);
    expect(limiter.size).toBe(0);
    expect(limiter.hit('asked').allowed).toBe(true);
    expect(limiter.wouldAllow('asked')).toMatchObject({ allowed: false, retryAfter: '60' });
    expect(limiter.size).toBe(1);
  });

  it('when more keys come than maxKeys, then the one started longest ago is dropped and starts afresh', () => {
    const limiter = new TokenBucketLimiter(1, 1, clock, 2);
    ['first', 'second', 'third'].forEach((key) => expect(limiter.hit(key).allowed).toBe(true));
    expect(limiter.size).toBe(2);
    expect(limiter.hit('third').allowed).toBe(false);
    expect(limiter.hit('first').allowed).toBe(true);
    expect(limiter.size).toBe(2);
  });

  it('when the policy header is built, then it carries the same partition key express-rate-limit used', () => {
    const pk = Buffer.from(createHash('sha256').update('key-2').digest('hex').slice(0, 12)).toString('base64');
    expect(new TokenBucketLimiter(5, 5, clock).hit('key-2').policy).toBe(`"5-in-1min"; q=5; w=60; pk=:${pk}:`);
  });

  it('when a key spends its burst, then it is refused with Retry-After until units come back, and other keys are unaffected', () => {
    const limiter = new TokenBucketLimiter(2, 2, clock);
    limiter.hit('busy');
    limiter.hit('busy');
    now += 10_000;
    expect(limiter.hit('busy')).toMatchObject({
      allowed: false,
      rateLimit: '"2-in-1min"; r=0; t=50',
      retryAfter: '20',
    });
    expect(limiter.hit('other').allowed).toBe(true);
    now += 20_000;
    expect(limiter.hit('busy')).toMatchObject({ allowed: true, rateLimit: '"2-in-1min"; r=0; t=60' });
  });

  it('when a flood keeps coming, then it is paced at the per-minute rate after its burst instead of spending the minute at once', () => {
    const limiter = new TokenBucketLimiter(6000, 1000, clock);
    let allowed = 0;
    // 100-row pages (10 units each) as fast as possible for a minute: one every millisecond.
    for (let ms = 0; ms < 60_000; ms++, now++) if (limiter.hit('flood', 10).allowed) allowed++;
    expect(allowed).toBeGreaterThanOrEqual(699);
    expect(allowed).toBeLessThanOrEqual(701); // the burst (100 pages) and then 10 a second
  });

  it('when a request costs more units than are left, then it is refused, while a cheaper one still passes', () => {
    const limiter = new TokenBucketLimiter(60, 20, clock);
    expect(limiter.hit('k', 10).allowed).toBe(true);
    expect(limiter.hit('k', 5).allowed).toBe(true);
    expect(limiter.hit('k', 10)).toMatchObject({
      allowed: false,
      rateLimit: '"60-in-1min"; r=5; t=15',
      retryAfter: '5',
    });
    expect(limiter.hit('k', 5)).toMatchObject({ allowed: true, rateLimit: '"60-in-1min"; r=0; t=20' });
  });

  it('when no burst is configured, then a key may spend ten seconds of its limit at once, or the whole limit when that is 60 or less', () => {
    expect(defaultBurst(6000)).toBe(1000);
    expect(defaultBurst(120)).toBe(60);
    expect(defaultBurst(5)).toBe(5);
  });

  it('when the maps rotate while a key is in use, then its bucket carries over', () => {
    const limiter = new TokenBucketLimiter(2, 2, clock);
    now += 30_000;
    limiter.hit('steady');
    now += 31_000; // past the rotation; one unit came back
    limiter.hit('steady');
    limiter.hit('steady');
    expect(limiter.hit('steady').allowed).toBe(false);
  });
});

describe('what a request costs', () => {
  it.each([
    ['GET', '/portal/domains/abc', 1],
    ['GET', '/portal/domains', 1],
    ['GET', '/portal/domains?limit=10', 1],
    ['GET', '/portal/domains?status=NEW&limit=11', 2],
    ['GET', '/portal/domains?limit=100&page=3', 10],
    ['GET', '/portal/domains?limit=100000', 10],
    ['GET', '/portal/domains?limit=0', 1],
    ['GET', '/portal/domains?climit=100', 1],
    ['POST', '/portal/domains', WRITE_COST],
    ['DELETE', '/portal/domains/abc', WRITE_COST],
    ['POST', '/portal/domains/bulk/subscription/product', BULK_COST],
  ])('%s %s costs %d', (method, url, cost) => {
    expect(requestCost(method, url)).toBe(cost);
  });
});
