import { envelope, startSystem, type OwnSystem, type Partner } from './support/system';

const LIMIT = 20;
const BAD_KEYS = 150;
const CONCURRENCY = 10;

/** A well-formed key nobody holds: a fresh prefix each time, so every one is looked up. */
const randomKey = () =>
  `pdm_live_${Math.random().toString(36).slice(2, 14).padEnd(12, 'x')}_${Math.random().toString(36).slice(2).padEnd(40, 'y')}`;

describe('failed authentication is throttled per client address', () => {
  let sys: OwnSystem;
  let partner: Partner;

  beforeAll(async () => {
    sys = await startSystem({ AUTH_FAILURES_PER_MINUTE: String(LIMIT) });
    partner = await sys.partner();
  });
  afterAll(async () => {
    await sys?.close();
  });

  it(`when one address sends ${BAD_KEYS} unknown keys, then past ${LIMIT} failures they get 429 RATE.LIMITED with Retry-After, while a valid key from the same address keeps getting 200`, async () => {
    const bad: { status: number; retryAfter: string | null; body: unknown }[] = [];
    const valid: number[] = [];
    let sent = 0;
    const flood = async () => {
      while (sent < BAD_KEYS) {
        sent++;
        const res = await sys.call(randomKey(), 'GET', '/portal/domains');
        bad.push({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.body });
      }
    };
    const flooding = Promise.all(Array.from({ length: CONCURRENCY }, flood));
    // The partner's own key, from the same address, all through the flood.
    while (sent < BAD_KEYS) valid.push((await sys.call(partner, 'GET', '/portal/domains')).status);
    await flooding;
    for (let i = 0; i < 5; i++) valid.push((await sys.call(partner, 'GET', '/portal/domains')).status);

    expect(bad.filter((r) => r.status === 401)).toHaveLength(LIMIT);
    const throttled = bad.filter((r) => r.status === 429);
    expect(throttled).toHaveLength(BAD_KEYS - LIMIT);
    for (const r of throttled) {
      expect(r.body).toEqual(envelope('RATE.LIMITED', 429));
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(60);
    }
    expect(valid.length).toBeGreaterThan(5);
    expect(new Set(valid)).toEqual(new Set([200]));

    // A missing key is a failed authentication too.
    const missing = await sys.call(undefined, 'GET', '/portal/domains');
    expect([missing.status, missing.body]).toEqual([429, envelope('RATE.LIMITED', 429)]);
  });
});
