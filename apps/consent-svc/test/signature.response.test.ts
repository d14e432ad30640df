import canonicalize from 'canonicalize';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { generateRecordSigningKeys } from '@platform/auth';
import { receipt, receiptsPath, startConsent, type ConsentTest } from './support';

/** Exactly what docs/api.md shows a partner: rebuild the detached payload from the record and verify against the JWKS. */
async function verifyRecord(record: Record<string, unknown>, jwks: JSONWebKeySet) {
  const { signature, ...unsigned } = record;
  const [header, , sig] = String(signature).split('.');
  const payload = Buffer.from(canonicalize(unsigned)!).toString('base64url');
  return compactVerify(`${header}.${payload}.${sig}`, createLocalJWKSet(jwks));
}

describe('record signatures: detached compact JWS (EdDSA) over the RFC 8785 JSON, verified with the JWKS', () => {
  const old = generateRecordSigningKeys();
  const current = generateRecordSigningKeys();
  /** The new key signs; the retired one stays listed. */
  const rotated = JSON.stringify({ keys: [...JSON.parse(current).keys, ...JSON.parse(old).keys] });
  let before: ConsentTest;
  let after: ConsentTest;
  beforeAll(async () => {
    [before, after] = await Promise.all([
      startConsent({ RECORD_SIGNING_KEYS: old }),
      startConsent({ RECORD_SIGNING_KEYS: rotated }),
    ]);
  });
  afterAll(() => Promise.all([before?.close(), after?.close()]));

  const jwksOf = async (c: ConsentTest) => {
    const res = await c.widget('GET', '/.well-known/jwks.json');
    expect(res.status).toBe(200);
    return res.body as JSONWebKeySet;
  };
  const signed = async (c: ConsentTest) => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      forwardedFor: '81.2.69.142',
      body: receipt(),
    });
    const listed = (await p.get(`/portal/instance/company/records?domain_id=${domain.id}`)).body.result[0];
    expect(listed).toEqual(res.body.result);
    return listed as Record<string, unknown>;
  };

  it('when a record is read from the API, then its signature verifies against the JWKS with jose and canonicalize, and the header is {alg: EdDSA, kid}', async () => {
    const record = await signed(after);
    const jwks = await jwksOf(after);
    const { protectedHeader, payload } = await verifyRecord(record, jwks);
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: JSON.parse(current).keys[0].kid });
    const { signature: _signature, ...unsigned } = record;
    expect(JSON.parse(Buffer.from(payload).toString('utf8'))).toEqual(unsigned);
  });

  it('when any field of the record is changed, then the signature no longer verifies', async () => {
    const record = await signed(after);
    const jwks = await jwksOf(after);
    for (const changed of [
      { receipt_status: 'DENIED' },
      { country: 'US' },
      { subject_data: { categories: {} } },
      { extra: true },
    ]) {
      await expect(verifyRecord({ ...record, ...changed }, jwks)).rejects.toThrow('signature verification failed');
    }
  });

  it('when the signing key was rotated, then the JWKS lists the new and the retired public key (no private part), and a record signed before still verifies', async () => {
    const oldRecord = await signed(before);
    const jwks = await jwksOf(after);
    expect(jwks.keys.map((k) => k.kid)).toEqual([JSON.parse(current).keys[0].kid, JSON.parse(old).keys[0].kid]);
    for (const key of jwks.keys) expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    expect((await verifyRecord(oldRecord, jwks)).protectedHeader.kid).toBe(JSON.parse(old).keys[0].kid);
    // The old instance's JWKS does not know the new key.
    await expect(verifyRecord(await signed(after), await jwksOf(before))).rejects.toThrow();
  });
});
