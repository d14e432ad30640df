import { randomUUID } from 'node:crypto';
import { SUBSCRIPTION_STATUSES, subscriptionStatsSchema } from '@platform/contracts';
import { act, startTestService } from '@platform/testing';
import { billingService } from '../src/service';

describe('GET /portal/stats/subscriptions (the Dashboard)', () => {
  const start = () => startTestService(billingService);
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  /** Subscriptions as domain events would have opened them: `n` of one product in one status. */
  const subscribe = async (partnerId: string, productCode: string, status: string, n: number) => {
    const db = t.service.runtime.db;
    const price = await db
      .selectFrom('prices')
      .innerJoin('products', 'products.id', 'prices.product_id')
      .select(['prices.id', 'prices.product_id', 'prices.price_list_id'])
      .where('products.code', '=', productCode)
      .orderBy('prices.id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < n; i++) {
      await db
        .insertInto('subscriptions')
        .values({
          id: randomUUID(),
          partner_id: partnerId,
          domain_id: randomUUID(),
          status,
          product_id: price.product_id,
          price_list_id: price.price_list_id,
          price_id: price.id,
          start_date: new Date(),
          end_date: status === 'INACTIVE' ? new Date() : null,
        })
        .execute();
    }
  };
  const stats = (token: string) => act(t.url, 'GET', '/portal/stats/subscriptions', { token });
  const zero = Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, 0]));

  it('when a partner has subscriptions, then each product of the catalogue counts its own in every status; another partner is never counted', async () => {
    const p = t.partner({ permissions: ['domains:read'] });
    await subscribe(p.id, 'PRO', 'ACTIVE', 3);
    await subscribe(p.id, 'PRO', 'INACTIVE', 1);
    await subscribe(p.id, 'PRO', 'TRIAL', 2);
    await subscribe(p.id, 'FREE', 'NEW', 1);
    const other = t.partner();
    await subscribe(other.id, 'PRO', 'ACTIVE', 5);
    await subscribe(other.id, 'ENTERPRISE', 'ACTIVE', 4);

    const res = await stats(p.token);
    expect(res.status).toBe(200);
    const { by_product } = subscriptionStatsSchema.parse(res.body.result);
    expect(by_product.map((row) => row.product_code)).toEqual(['FREE', 'PRO', 'ENTERPRISE', 'AUDIT']);
    expect(by_product).toEqual([
      { product_code: 'FREE', product_name: expect.any(String), active: 0, total: 1, by_status: { ...zero, NEW: 1 } },
      {
        product_code: 'PRO',
        product_name: expect.any(String),
        active: 3,
        total: 6,
        by_status: { ...zero, ACTIVE: 3, INACTIVE: 1, TRIAL: 2 },
      },
      { product_code: 'ENTERPRISE', product_name: expect.any(String), active: 0, total: 0, by_status: zero },
      { product_code: 'AUDIT', product_name: expect.any(String), active: 0, total: 0, by_status: zero },
    ]);
  });

  it('when a partner has no subscription, then every product is there with 0', async () => {
    const res = await stats(t.partner().token);
    expect(res.status).toBe(200);
    for (const row of subscriptionStatsSchema.parse(res.body.result).by_product) {
      expect(row).toMatchObject({ active: 0, total: 0, by_status: zero });
    }
  });

  it('when the key lacks domains:read, then 403', async () => {
    const res = await stats(t.partner({ permissions: ['products:read'] }).token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTH.FORBIDDEN');
  });
});
