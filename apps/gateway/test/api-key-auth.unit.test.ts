import { generateApiKey, keyMatches } from '../src/domain/api-key';
import { KeyAuthenticator, type KeyRecord } from '../src/domain/key-authenticator';

/** One stored key, and an authenticator whose digest comparer is counted. */
function setup(overrides: Partial<KeyRecord> = {}) {
  const { key, prefix, hash } = generateApiKey();
  const record: KeyRecord = {
    ...{ id: 'k1', partnerId: 'p1', prefix, secretHash: hash, permissions: [], requiredFields: [] },
    ...{ allowedIp: null, expiresAt: null, revokedAt: null, ...overrides },
  };
  const compared: Buffer[] = [];
  const auth = new KeyAuthenticator(
    async (p) => (p === prefix ? record : undefined),
    60_000,
    Date.now,
    (presented, storedHash) => {
      compared.push(storedHash);
      return keyMatches(presented, storedHash);
    },
  );
  return { key, hash, auth, compared };
}

describe('API key authentication does the same work whatever the key', () => {
  it('when the prefix is unknown, then the digest compare still runs once, against a stand-in digest', async () => {
    const s = setup();
    const unknown = generateApiKey().key;
    expect(await s.auth.authenticate(unknown, '127.0.0.1')).toEqual({ ok: false, reason: 'unknown' });
    expect(s.compared).toHaveLength(1);
    expect(s.compared[0]).toHaveLength(s.hash.length);
    expect(s.compared[0].equals(s.hash)).toBe(false);
  });

  it('when the key is malformed, then the digest compare still runs once', async () => {
    const s = setup();
    expect(await s.auth.authenticate('not-a-key', '127.0.0.1')).toEqual({ ok: false, reason: 'malformed' });
    expect(s.compared).toHaveLength(1);
  });

  it('when the key is valid, then it is compared once with its stored digest', async () => {
    const s = setup();
    expect((await s.auth.authenticate(s.key, '127.0.0.1')).ok).toBe(true);
    expect(s.compared).toEqual([s.hash]);
  });

  it('when the secret is wrong for a revoked, expired and IP-pinned key, then the answer is unknown, not its state', async () => {
    const s = setup({ revokedAt: new Date(), expiresAt: new Date(0), allowedIp: '203.0.113.9' });
    const wrongSecret = `${s.key.slice(0, -4)}AAAA`;
    expect(await s.auth.authenticate(wrongSecret, '127.0.0.1')).toEqual({ ok: false, reason: 'unknown' });
    expect(s.compared).toEqual([s.hash]);
  });
});
