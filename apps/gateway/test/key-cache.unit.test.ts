import { generateApiKey } from '../src/domain/api-key';
import { KeyAuthenticator, type KeyRecord } from '../src/domain/key-authenticator';

/** Pure logic of the key cache; the lookup is an in-memory table standing in for the database row. */
function setup(ttlMs = 60_000) {
  const { key, prefix, hash } = generateApiKey();
  const rows = new Map<string, KeyRecord>();
  const record: KeyRecord = {
    id: 'k1',
    partnerId: 'p1',
    prefix,
    secretHash: hash,
    permissions: ['domains:read'],
    requiredFields: [],
    allowedIp: null,
    expiresAt: null,
    revokedAt: null,
  };
  rows.set(prefix, record);
  let lookups = 0;
  let gate: Promise<void> | undefined;
  const auth = new KeyAuthenticator(async (p) => {
    lookups++;
    const snapshot = rows.get(p) && { ...rows.get(p)! };
    await gate;
    return snapshot;
  }, ttlMs);
  return {
    key,
    prefix,
    rows,
    auth,
    lookups: () => lookups,
    hold: () => {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('key authenticator cache', () => {
  it('when caching is on, then repeated requests with one key make one lookup', async () => {
    const s = setup();
    s.auth.setCaching(true);
    for (let i = 0; i < 5; i++) expect((await s.auth.authenticate(s.key, '127.0.0.1')).ok).toBe(true);
    expect(s.lookups()).toBe(1);
  });

  it('when caching is off (listener down), then every request reads the record, so a revocation is seen at once', async () => {
    const s = setup();
    expect((await s.auth.authenticate(s.key, '127.0.0.1')).ok).toBe(true);
    s.rows.get(s.prefix)!.revokedAt = new Date();
    expect(await s.auth.authenticate(s.key, '127.0.0.1')).toEqual({ ok: false, reason: 'revoked' });
    expect(s.lookups()).toBe(2);
  });

  it('when a key is invalidated, then the next request reads the revoked record', async () => {
    const s = setup();
    s.auth.setCaching(true);
    await s.auth.authenticate(s.key, '127.0.0.1');
    s.rows.get(s.prefix)!.revokedAt = new Date();
    s.auth.invalidate(s.prefix);
    expect(await s.auth.authenticate(s.key, '127.0.0.1')).toEqual({ ok: false, reason: 'revoked' });
  });

  it('when an invalidation arrives while a lookup is in flight, then the stale result is not cached', async () => {
    const s = setup();
    s.auth.setCaching(true);
    const release = s.hold();
    const inFlight = s.auth.authenticate(s.key, '127.0.0.1');
    s.rows.get(s.prefix)!.revokedAt = new Date();
    s.auth.invalidate(s.prefix);
    release();
    expect((await inFlight).ok).toBe(true);
    expect(await s.auth.authenticate(s.key, '127.0.0.1')).toEqual({ ok: false, reason: 'revoked' });
  });

  it('when concurrent first requests arrive, then they share one lookup', async () => {
    const s = setup();
    s.auth.setCaching(true);
    const release = s.hold();
    const all = Promise.all([1, 2, 3].map(() => s.auth.authenticate(s.key, '127.0.0.1')));
    release();
    expect((await all).every((r) => r.ok)).toBe(true);
    expect(s.lookups()).toBe(1);
  });

  it('when the allowed IP is IPv4 and the socket reports it IPv4-mapped, then it matches', async () => {
    const s = setup();
    s.rows.get(s.prefix)!.allowedIp = '10.0.0.7';
    expect((await s.auth.authenticate(s.key, '::ffff:10.0.0.7')).ok).toBe(true);
    expect(await s.auth.authenticate(s.key, '10.0.0.8')).toEqual({ ok: false, reason: 'ip_not_allowed' });
  });

  it('when the allowed IP is IPv6, then differently written forms of it match', async () => {
    const s = setup();
    s.rows.get(s.prefix)!.allowedIp = '2001:db8::1';
    expect((await s.auth.authenticate(s.key, '2001:0db8:0:0:0:0:0:1')).ok).toBe(true);
  });
});
