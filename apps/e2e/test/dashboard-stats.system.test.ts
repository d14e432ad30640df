import { randomUUID } from 'node:crypto';
import {
  domainStatsSchema,
  receiptStatsSchema,
  subscriptionStatsSchema,
  webhookStatsSchema,
} from '@platform/contracts';
import { waitFor } from '@platform/testing';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

describe('the Dashboard statistics through the gateway, with an API key', () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  beforeAll(async () => {
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
  });
  afterAll(() => sys?.close());

  const create = async (who: Partner, extra: Record<string, unknown> = {}) => {
    const host = `dash-${randomUUID().slice(0, 8)}.example.com`;
    const body = { domain: host, company_name: `Dash ${host}`, account_email: `o@${host}`, ...extra };
    return (await sys.arrange(who, 'POST', '/portal/domains', body)).body.result as { id: string };
  };
  const stats = async (who: Partner, path: string) => {
    const res = await sys.call(who, 'GET', `/portal/stats/${path}`);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return res.body.result;
  };

  it("when a key's partner has domains, then every stats route answers its own numbers (each service's), and another partner's are zeros", async () => {
    const invited = await create(partner, { product: 'PRO' });
    await create(partner, { product: 'PRO' });
    await sys.arrange(partner, 'POST', `/portal/domains/${invited.id}/invite`, {});

    const domains = domainStatsSchema.parse(await stats(partner, 'domains?weeks=4'));
    expect(domains.by_status).toMatchObject({ INVITED: 1, ACTIVE: 0, INACTIVE: 0 });
    expect(domains.by_status.NEW + domains.by_status.SCANNED).toBe(1);
    expect(domains.funnel).toHaveLength(4);
    expect(domains.funnel[3]).toMatchObject({ created: 2, invited: 1, activated: 0 });

    // billing-svc opens the subscriptions from domain.created: they appear once it has handled them.
    const pro = await waitFor(
      async () => {
        const row = subscriptionStatsSchema
          .parse(await stats(partner, 'subscriptions'))
          .by_product.find((p) => p.product_code === 'PRO');
        return row?.total === 2 ? row : undefined;
      },
      { what: "billing-svc's two PRO subscriptions" },
    );
    expect(pro.active).toBe(2);

    expect(webhookStatsSchema.parse(await stats(partner, 'webhooks'))).toEqual({
      endpoints: { total: 0, disabled: 0, failing: [] },
      pending: 0,
      oldest_pending_delivery_at: null,
      failed_last_24h: 0,
    });
    const receipts = receiptStatsSchema.parse(await stats(partner, 'receipts?days=7'));
    expect(receipts.per_day.map((d) => d.total)).toEqual([0, 0, 0, 0, 0, 0, 0]);

    const theirs = domainStatsSchema.parse(await stats(other, 'domains'));
    expect(Object.values(theirs.by_status).every((n) => n === 0)).toBe(true);
    const theirSubscriptions = subscriptionStatsSchema.parse(await stats(other, 'subscriptions'));
    expect(theirSubscriptions.by_product.every((p) => p.total === 0)).toBe(true);
  });

  it('when the query is out of range, then 400 VALIDATION.INVALID; a key without the permission gets 403', async () => {
    for (const path of ['domains?weeks=53', 'receipts?days=0']) {
      const res = await sys.call(partner, 'GET', `/portal/stats/${path}`);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: envelope('VALIDATION.INVALID', 400),
      });
    }
    const productsOnly = await sys.partner(undefined, ['--permissions', 'products:read']);
    for (const path of ['domains', 'subscriptions', 'webhooks', 'receipts']) {
      const res = await sys.call(productsOnly, 'GET', `/portal/stats/${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
  });
});
