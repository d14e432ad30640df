import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { waitFor } from '@platform/testing';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

/** Domains of one system with their subscriptions, through the gateway and in billing's table. */
const helpersOf = (system: () => System, database: () => Client) => ({
  create: async (who: Partner, extra: Record<string, unknown> = {}) => {
    const host = `subs-${randomUUID().slice(0, 8)}.example.com`;
    return (
      await system().arrange(who, 'POST', '/portal/domains', {
        domain: host,
        company_name: `Subs ${host}`,
        account_email: `o@${host}`,
        company_setup: true,
        ...extra,
      })
    ).body.result as { id: string };
  },
  get: async (who: Partner, id: string) => (await system().arrange(who, 'GET', `/portal/domains/${id}`)).body.result,
  billingRow: async (subscriptionId: string) =>
    (await database().query(`SELECT * FROM billing.subscriptions WHERE id = $1`, [subscriptionId])).rows[0],
});

describe('subscriptions and product changes through the gateway (domains-svc and billing-svc)', () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  let db: Client;
  const { create, get, billingRow } = helpersOf(
    () => sys,
    () => db,
  );

  beforeAll(async () => {
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
    db = await sys.db();
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('when a domain is created with a product, then the very next read shows its subscription, and billing-svc opens it', async () => {
    const d = await create(partner, { product: 'PRO', price_list: 'EU' });
    const read = await get(partner, d.id);
    expect(read.subscription).toMatchObject({
      status: 'ACTIVE',
      end_date: null,
      price: {
        id: 205,
        frequency: 'MONTH',
        currency: { id: 'EUR', name: 'Euro' },
        price_amount: 18,
        price_list: { id: 3, code: 'EU', type: 'PUBLIC' },
        product: { id: 2, name: 'Privacy Pro', type: 'SUBSCRIPTION' },
      },
    });
    const opened = await waitFor(() => billingRow(read.subscription.id));
    expect(opened).toMatchObject({
      domain_id: d.id,
      partner_id: partner.id,
      product_id: 2,
      price_list_id: 3,
      price_id: 205,
      status: 'ACTIVE',
    });
  });

  it('when an unknown product or price list is named on create, then 400 and nothing is created', async () => {
    const before = (await sys.arrange(partner, 'GET', '/portal/domains?limit=100')).body.result.length;
    const body = { domain: 'nope.example.com', company_name: 'Nope', account_email: 'o@nope.example.com' };
    const product = await sys.call(partner, 'POST', '/portal/domains', { ...body, product: 'GOLD' });
    expect(product.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(product.body.error.data.issues).toEqual([expect.objectContaining({ path: 'body.product' })]);
    const priceList = await sys.call(partner, 'POST', '/portal/domains', {
      ...body,
      product: 'PRO',
      price_list: 'NOWHERE',
    });
    expect(priceList.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(priceList.body.error.data.issues).toEqual([expect.objectContaining({ path: 'body.price_list' })]);
    expect((await sys.arrange(partner, 'GET', '/portal/domains?limit=100')).body.result.length).toBe(before);
  });

  it('when the product is changed, then {changed: true}, then {changed: false}; the next read and the list filters show it at once', async () => {
    const d = await create(partner);
    const change = await sys.call(partner, 'POST', `/portal/domains/${d.id}/subscription/product`, {
      product: 'ENTERPRISE',
      price_list: 'STANDARD',
    });
    expect(change.status).toBe(200);
    expect(change.body).toEqual({ result: { changed: true } });
    expect((await get(partner, d.id)).subscription.price).toMatchObject({ id: 301, product: { id: 3 } });
    const listed = (
      await sys.arrange(partner, 'GET', '/portal/domains?product_id=3&price_list_id=1&limit=100')
    ).body.result.map((x: { id: string }) => x.id);
    expect(listed).toContain(d.id);
    expect(
      (
        await sys.call(partner, 'POST', `/portal/domains/${d.id}/subscription/product`, {
          product: 'ENTERPRISE',
          price_list: 'STANDARD',
        })
      ).body,
    ).toEqual({ result: { changed: false } });
    expect(
      (await sys.call(partner, 'POST', `/portal/domains/${d.id}/subscription/product`, { product: 'GOLD' })).body,
    ).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(
      (await sys.call(other, 'POST', `/portal/domains/${d.id}/subscription/product`, { product: 'PRO' })).body,
    ).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    // billing-svc follows the change (it learns of it by event): its row ends up on the new price.
    const row = await waitFor(
      async () => {
        const r = await billingRow((await get(partner, d.id)).subscription.id);
        return r?.product_id === 3 ? r : undefined;
      },
      { what: "billing's row on the new product" },
    );
    expect(row).toMatchObject({ domain_id: d.id, product_id: 3, price_id: 301 });
  });

  it("when 100 domains are changed in bulk with some not found, then each is reported, and another partner's domain is not touched", async () => {
    const mine = [];
    for (let i = 0; i < 95; i++) mine.push(await create(partner));
    const theirs = await create(other);
    const entries = [
      ...mine.map((d) => ({ id: d.id, product: 'PRO' })),
      { id: theirs.id, product: 'PRO' },
      { id: randomUUID(), product: 'PRO' },
      { id: 'not-an-id', product: 'PRO' },
      { id: mine[0].id, product: 'GOLD' },
      { id: mine[1].id, product: 'PRO', price_list: 'NOWHERE' },
    ];
    expect(entries).toHaveLength(100);
    const res = await sys.call(partner, 'POST', '/portal/domains/bulk/subscription/product', { domains: entries });
    expect(res.status).toBe(200);
    expect(res.body.result.changed).toHaveLength(95);
    expect(res.body.result.changed.every((c: { changed: boolean }) => c.changed)).toBe(true);
    expect(
      res.body.result.failed.map((f: { domain_id: string; error: { code: string } }) => [f.domain_id, f.error.code]),
    ).toEqual([
      [theirs.id, 'RESOURCE.NOT_FOUND'],
      [entries[96].id, 'RESOURCE.NOT_FOUND'],
      ['not-an-id', 'RESOURCE.NOT_FOUND'],
      [mine[0].id, 'VALIDATION.INVALID'],
      [mine[1].id, 'VALIDATION.INVALID'],
    ]);
    expect((await get(other, theirs.id)).subscription.price.product.id).toBe(1);
    expect((await get(partner, mine[50].id)).subscription.price.product.id).toBe(2);

    const single = await sys.call(partner, 'POST', '/portal/domains/bulk/subscription/product', {
      domains: { id: mine[2].id, product: 'PRO' },
    });
    expect(single.body).toEqual({ result: { changed: [{ domain_id: mine[2].id, changed: false }], failed: [] } });
    const tooMany = await sys.call(partner, 'POST', '/portal/domains/bulk/subscription/product', {
      domains: [...entries, entries[0]],
    });
    expect(tooMany.body).toEqual(envelope('VALIDATION.INVALID', 400));
  });

  it('when a domain is deleted, then billing-svc ends its subscription', async () => {
    const d = await create(partner);
    const subscriptionId = (await get(partner, d.id)).subscription.id;
    await waitFor(() => billingRow(subscriptionId));
    await sys.arrange(partner, 'DELETE', `/portal/domains/${d.id}`);
    const ended = await waitFor(async () => {
      const row = await billingRow(subscriptionId);
      return row?.status === 'INACTIVE' ? row : undefined;
    });
    expect(ended.end_date).toBeInstanceOf(Date);
  });
});
