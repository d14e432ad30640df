import { createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import canonicalize from 'canonicalize';
import { act, waitFor, type ApiResponse } from '@platform/testing';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

const visitorToken = () => randomBytes(24).toString('base64url');

describe('consent records through the gateway (records:read), made by consent-svc from widget receipts', () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  /** A page's call through the gateway's public path (no API key); the gateway believes the test's X-Forwarded-For (TRUSTED_PROXIES of SHARED_ENV). */
  const widget = (method: string, path: string, origin?: string, body?: unknown): Promise<ApiResponse> =>
    act(sys.gateway, method, path, {
      body,
      headers: { ...(origin ? { origin } : {}), 'x-forwarded-for': '89.160.20.112' },
    });

  beforeAll(async () => {
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
  });
  afterAll(() => sys?.close());

  const createDomain = async (who: Partner, merchantId?: string) => {
    const hostname = `consent-${randomUUID().slice(0, 8)}.example.com`;
    const body = {
      domain: hostname,
      company_name: `Consent ${hostname}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
      country: 'SE',
      ...(merchantId ? { merchant_id: merchantId } : {}),
    };
    const created = (await sys.arrange(who, 'POST', '/portal/domains', body)).body.result as {
      id: string;
      hostname: string;
      instance_property_id: string;
    };
    return { id: created.id, hostname: created.hostname, property_id: created.instance_property_id };
  };
  const receipt = () => ({
    receipt_type: 'COOKIE_CONSENT',
    subject: visitorToken(),
    consent_revision: 'r1',
    categories: { functional: true, analytics: false, marketing: false },
    widget_version: '1.0.0',
    nonce: visitorToken(),
  });
  /** A receipt from a page on the domain, once consent-svc has learned the property from domains-svc's events. */
  const accept = (domain: { hostname: string; property_id: string }, body: Record<string, unknown> = receipt()) =>
    waitFor(
      async () => {
        const res = await widget(
          'POST',
          `/widget/v1/properties/${domain.property_id}/receipts`,
          `https://${domain.hostname}`,
          body,
        );
        return res.status === 201 ? (res.body.result as Record<string, unknown>) : undefined;
      },
      { what: 'consent-svc to know the property' },
    );

  it('when a receipt was recorded, then the partner lists and reads it by domain_id and merchant_id, exactly as signed, and the signature verifies against the JWKS', async () => {
    const merchantId = `m-${randomUUID().slice(0, 8)}`;
    const domain = await createDomain(partner, merchantId);
    const record = await accept(domain);
    expect(record).toMatchObject({
      receipt_status: 'PARTIAL',
      country: 'SE',
      jurisdiction: 'GDPR',
      data_controller: { name: `Consent ${domain.hostname}`, address: { country: 'SE' } },
    });
    const byDomain = await sys.call(partner, 'GET', `/portal/instance/company/records?domain_id=${domain.id}`);
    expect([byDomain.status, byDomain.body]).toEqual([200, { meta: { current_page: 1 }, result: [record] }]);
    expect(
      (await sys.call(partner, 'GET', `/portal/instance/company/records?merchant_id=${merchantId}`)).body.result,
    ).toEqual([record]);
    expect(
      (
        await sys.call(
          partner,
          'GET',
          `/portal/instance/company/records/${String(record.receipt_id)}?domain_id=${domain.id}`,
        )
      ).body,
    ).toEqual({ result: record });

    const jwks = (await widget('GET', '/.well-known/jwks.json')).body as { keys: { kid: string }[] };
    const { signature, ...unsigned } = record;
    const [header, , sig] = String(signature).split('.');
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid: string };
    const key = createPublicKey({ key: jwks.keys.find((k) => k.kid === kid)!, format: 'jwk' } as Parameters<
      typeof createPublicKey
    >[0]);
    const signingInput = `${header}.${Buffer.from(canonicalize(unsigned)!).toString('base64url')}`;
    expect(verify(null, Buffer.from(signingInput), key, Buffer.from(sig, 'base64url'))).toBe(true);
  });

  it('when neither merchant_id nor domain_id is given, then 400; a key without records:read gets 403', async () => {
    const res = await sys.call(partner, 'GET', '/portal/instance/company/records');
    expect([res.status, res.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toEqual([
      'query.merchant_id',
      'query.domain_id',
    ]);
    const readOnly = await sys.partner(undefined, ['--permissions', 'domains:read']);
    const forbidden = await sys.call(readOnly, 'GET', '/portal/instance/company/records?domain_id=x');
    expect([forbidden.status, forbidden.body.error.data]).toEqual([403, { required: 'records:read' }]);
  });

  it("when another partner asks for a partner's records, then its list is empty and the record is 404", async () => {
    const domain = await createDomain(partner);
    const record = await accept(domain);
    const list = await sys.call(other, 'GET', `/portal/instance/company/records?domain_id=${domain.id}`);
    expect([list.status, list.body.result]).toEqual([200, []]);
    const one = await sys.call(
      other,
      'GET',
      `/portal/instance/company/records/${String(record.receipt_id)}?domain_id=${domain.id}`,
    );
    expect([one.status, one.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
  });

  it('when a receipt is replayed, malformed or oversized, then 400 RECEIPT.REPLAYED, 400 VALIDATION.INVALID or 413, and only the first record is stored', async () => {
    const domain = await createDomain(partner);
    const first = receipt();
    await accept(domain, first);
    const post = (body: unknown) =>
      widget('POST', `/widget/v1/properties/${domain.property_id}/receipts`, `https://${domain.hostname}`, body);

    const replayed = await post({ ...first, subject: visitorToken() });
    expect([replayed.status, replayed.body]).toEqual([400, envelope('RECEIPT.REPLAYED', 400)]);
    const malformed = await post({ ...receipt(), receipt_type: 'COOKIES', categories: 'all' });
    expect([malformed.status, malformed.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    const oversized = await post({ ...receipt(), subject_data: { note: 'x'.repeat(64 * 1024) } });
    expect(oversized.status).toBe(413);
    expect(oversized.body.error).toMatchObject({ status: 413 });

    const stored = await sys.call(partner, 'GET', `/portal/instance/company/records?domain_id=${domain.id}`);
    expect(stored.body.result).toHaveLength(1);
  });
});
