import { randomUUID } from 'node:crypto';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

interface MerchantView {
  id: string;
  merchant_id: string;
  registered_at: string | null;
  domain: {
    id: string;
    hostname: string;
    status: string;
    is_active: boolean;
    created_at: string;
    email: string;
    source: string;
  } | null;
}

/** Domains and merchants of one system, set up and read through the gateway. */
const helpersOf = (system: () => System) => {
  const host = () => `merch-${randomUUID().slice(0, 8)}.example.com`;
  return {
    createDomain: async (who: Partner, extra: Record<string, unknown> = {}) => {
      const h = host();
      return (
        await system().arrange(who, 'POST', '/portal/domains', {
          domain: h,
          company_name: `Merch ${h}`,
          account_email: `o@${h}`,
          company_setup: true,
          ...extra,
        })
      ).body.result as {
        id: string;
        hostname: string;
        email: string;
      };
    },
    merchantsWith: async (who: Partner, merchantId: string) =>
      (await system().arrange(who, 'GET', `/portal/merchants?merchant_id=${encodeURIComponent(merchantId)}`)).body
        .result as MerchantView[],
    productOf: async (who: Partner, domainId: string) =>
      (await system().arrange(who, 'GET', `/portal/domains/${domainId}`)).body.result.subscription.price.product
        .id as number,
  };
};

describe('merchants through the gateway (merchants-svc, linked by domains-svc), and default products', () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  const { createDomain, merchantsWith, productOf } = helpersOf(() => sys);

  beforeAll(async () => {
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('when a merchant is created, read, updated and deleted, then each answers in the contract shape; a duplicate merchant_id is 409', async () => {
    const created = await sys.call(partner, 'POST', '/portal/merchants', {
      merchant_id: 'crud-1',
      company_name: 'Crud Ltd',
      description: 'first',
      meta: { tier: 'gold' },
    });
    expect(created.status).toBe(201);
    const m = created.body.result;
    expect(m).toMatchObject({
      merchant_id: 'crud-1',
      company_name: 'Crud Ltd',
      description: 'first',
      meta: { tier: 'gold' },
      partner_id: partner.id,
      domain: null,
      registered_at: null,
    });
    expect((await sys.call(partner, 'GET', `/portal/merchants/${m.id}`)).body.result).toEqual(m);
    expect((await sys.call(partner, 'POST', '/portal/merchants', { merchant_id: 'crud-1' })).body).toEqual(
      envelope('MERCHANT.ALREADY_EXISTS', 409),
    );
    const updated = await sys.call(partner, 'PUT', `/portal/merchants/${m.id}`, { description: 'second' });
    expect(updated.body.result).toMatchObject({ id: m.id, merchant_id: 'crud-1', description: 'second' });
    expect(
      (await sys.call(partner, 'GET', '/portal/merchants?meta.tier=gold')).body.result.map((x: MerchantView) => x.id),
    ).toEqual([m.id]);
    expect((await sys.call(partner, 'DELETE', `/portal/merchants/${m.id}`)).body).toEqual({
      result: { deleted: true },
    });
    expect((await sys.call(partner, 'GET', `/portal/merchants/${m.id}`)).body).toEqual(
      envelope('RESOURCE.NOT_FOUND', 404),
    );
  });

  it("when another partner uses a merchant's id, then every merchant route answers 404 and the list does not show it", async () => {
    const m = (await sys.arrange(partner, 'POST', '/portal/merchants', { merchant_id: 'iso-1' })).body.result;
    for (const [method, body] of [['GET'], ['PUT', { description: 'stolen' }], ['DELETE']] as const) {
      const res = await sys.call(other, method, `/portal/merchants/${m.id}`, body);
      expect({ method, status: res.status }).toEqual({ method, status: 404 });
      expect(res.body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    }
    expect(await merchantsWith(other, 'iso-1')).toEqual([]);
    expect((await sys.arrange(partner, 'GET', `/portal/merchants/${m.id}`)).body.result.description).toBeNull();
  });

  it('when a domain is created with a new merchant_id, then the very next reads show the merchant registered with its domain, and the domain list filters by it', async () => {
    const d = await createDomain(partner, { merchant_id: 'ryw-1' });
    const [m] = await merchantsWith(partner, 'ryw-1');
    expect(m).toMatchObject({
      merchant_id: 'ryw-1',
      registered_at: expect.any(String),
      domain: { id: d.id, hostname: d.hostname, status: 'NEW', is_active: true, email: d.email, source: 'API' },
    });
    expect((await sys.arrange(partner, 'GET', `/portal/merchants/${m.id}`)).body.result.domain.id).toBe(d.id);
    expect(
      (await sys.arrange(partner, 'GET', '/portal/merchants?is_registered=true&limit=100')).body.result.map(
        (x: MerchantView) => x.id,
      ),
    ).toContain(m.id);
    expect(
      (await sys.arrange(partner, 'GET', '/portal/domains?merchant_id=ryw-1')).body.result.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([d.id]);
    expect((await sys.arrange(partner, 'GET', `/portal/domains/${d.id}`)).body.result.merchants).toEqual(['ryw-1']);
  });

  it("when a linked domain is invited and then deleted, then its merchant's domain object shows each change on the next read", async () => {
    const existing = (
      await sys.arrange(partner, 'POST', '/portal/merchants', { merchant_id: 'ryw-2', company_name: 'Known' })
    ).body.result;
    const d = await createDomain(partner, { merchant_id: 'ryw-2' });
    expect((await merchantsWith(partner, 'ryw-2')).map((x) => x.id)).toEqual([existing.id]);
    await sys.arrange(partner, 'POST', `/portal/domains/${d.id}/invite`, { send_intro: false });
    expect((await sys.arrange(partner, 'GET', `/portal/merchants/${existing.id}`)).body.result.domain).toMatchObject({
      id: d.id,
      status: 'INVITED',
    });
    await sys.arrange(partner, 'DELETE', `/portal/domains/${d.id}`);
    expect((await sys.arrange(partner, 'GET', `/portal/merchants/${existing.id}`)).body.result.domain).toBeNull();
  });

  it("when a domain names no product, then the merchant's default applies, else the partner's (set with partner update), else billing's entry product", async () => {
    const fresh = await sys.partner();
    expect(await productOf(fresh, (await createDomain(fresh)).id)).toBe(1);
    await sys.admin(
      'partner',
      'update',
      '--partner',
      fresh.id,
      '--default-product',
      'PRO',
      '--default-price-list',
      'EU',
    );
    const byPartner = await createDomain(fresh);
    expect(
      (await sys.arrange(fresh, 'GET', `/portal/domains/${byPartner.id}`)).body.result.subscription.price,
    ).toMatchObject({ product: { id: 2 }, price_list: { code: 'EU' } });
    await sys.arrange(fresh, 'POST', '/portal/merchants', {
      merchant_id: 'big-1',
      default_product: 'ENTERPRISE',
      default_price_list: 'STANDARD',
    });
    expect(await productOf(fresh, (await createDomain(fresh, { merchant_id: 'big-1' })).id)).toBe(3);
    expect(await productOf(fresh, (await createDomain(fresh, { merchant_id: 'big-1', product: 'FREE' })).id)).toBe(1);
  });
});
