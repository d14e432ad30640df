import { randomUUID } from 'node:crypto';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { exampleEventPayload, PERMISSIONS } from '@platform/contracts';
import { publishEvents, startTestService, testInfra, waitFor } from '@platform/testing';
import { billingService } from '../src/service';

describe('billing-svc subscriptions', () => {
  const services = generateInternalKeyPair();
  const start = () => startTestService(billingService, { SERVICE_JWT_PUBLIC_KEY: services.publicKey });
  let t: Awaited<ReturnType<typeof start>>;
  const minter = new InternalTokenMinter(services.privateKey, 60, 'services');
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  const subscription = (id: string) =>
    t.service.runtime.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  const change = async (partnerId: string, changes: unknown[], issuer: 'services' | 'gateway' = 'services') => {
    const token =
      issuer === 'services'
        ? minter.mint(
            { partnerId, keyId: `svc-${partnerId}`, permissions: [...PERMISSIONS], requiredFields: [] },
            'billing',
          )
        : t.partner().token;
    const res = await fetch(`${t.url}/internal/subscriptions/product`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ changes }),
    });
    return {
      status: res.status,
      body: (await res.json()) as {
        result: {
          subscription_id: string;
          changed: boolean;
          version: number;
          subscription: { product_id: number; status: string };
        }[];
      },
    };
  };
  const domainCreated = (ids: { domain: string; subscription: string }, productId = 1) => {
    const created = exampleEventPayload('domain.created') as {
      params: Record<string, unknown>;
      entity: { data: Record<string, unknown> };
    };
    created.params = {
      ...created.params,
      domain_id: ids.domain,
      subscription_id: ids.subscription,
      product_id: productId,
      price_list_id: 1,
    };
    created.entity.data = { ...created.entity.data, id: ids.domain };
    return created as never;
  };
  /** Publishes domain.created twice (as a redelivery would) and answers the ids and the messages' ids. */
  const newDomain = async (partnerId: string) => {
    const ids = { domain: randomUUID(), subscription: randomUUID() };
    const messageIds = await publishEvents((await testInfra()).amqpUrl, t.exchange, partnerId, [
      domainCreated(ids),
      domainCreated(ids),
    ]);
    return { ...ids, messageIds };
  };
  /** Waits until billing-svc's consumer has handled every one of these messages. */
  const handled = (messageIds: string[]) =>
    waitFor(
      async () => {
        const { rows } = await t.service.runtime.pool.query(
          `SELECT count(*)::int AS n FROM billing.processed_messages WHERE message_id = ANY($1::text[])`,
          [messageIds],
        );
        return rows[0].n === messageIds.length;
      },
      { what: 'the messages to be handled' },
    );
  const outboxCount = async (aggregateId: string) =>
    (
      await t.service.runtime.pool.query(
        `SELECT count(*)::int AS n FROM billing.outbox WHERE message->>'aggregate_id' = $1`,
        [aggregateId],
      )
    ).rows[0].n as number;

  it('when a domain is created (the event arriving twice), then one ACTIVE subscription opens on its product and price list', async () => {
    const ids = await newDomain('p1');
    await handled(ids.messageIds);
    expect(await subscription(ids.subscription)).toMatchObject({
      partner_id: 'p1',
      domain_id: ids.domain,
      status: 'ACTIVE',
      product_id: 1,
      price_list_id: 1,
      price_id: 101,
      end_date: null,
    });
    expect(await outboxCount(ids.subscription)).toBe(1);
  });

  it('when domains-svc changes a product, then it changes once ({changed: false} the second time), with a new version; a gateway token cannot call it', async () => {
    const ids = await newDomain('p2');
    await waitFor(() => subscription(ids.subscription));
    const body = [
      {
        subscription_id: ids.subscription,
        domain_id: ids.domain,
        product_id: 2,
        price_list_id: 3,
        price_id: 205,
        start_date: new Date().toISOString(),
      },
    ];
    const first = await change('p2', body);
    expect(first.status).toBe(200);
    expect(first.body.result[0]).toMatchObject({
      changed: true,
      version: 2,
      subscription: { product_id: 2, status: 'ACTIVE' },
    });
    const again = await change('p2', body);
    expect(again.body.result[0]).toMatchObject({ changed: false, version: 2 });
    expect((await change('p2', body, 'gateway')).status).toBe(403);
    expect((await change('someone-else', body)).status).toBe(400);
    expect(await subscription(ids.subscription)).toMatchObject({ product_id: 2, price_list_id: 3, price_id: 205 });
  });

  it('when a change arrives before domain.created, then the subscription opens from the call and the late event changes nothing', async () => {
    const ids = { domain: randomUUID(), subscription: randomUUID() };
    const res = await change('p3', [
      {
        subscription_id: ids.subscription,
        domain_id: ids.domain,
        product_id: 3,
        price_list_id: 1,
        price_id: 301,
        start_date: new Date().toISOString(),
      },
    ]);
    expect(res.body.result[0]).toMatchObject({ changed: true, version: 1, subscription: { product_id: 3 } });
    expect(await subscription(ids.subscription)).toMatchObject({ product_id: 3, status: 'ACTIVE' });
    await handled(await publishEvents((await testInfra()).amqpUrl, t.exchange, 'p3', [domainCreated(ids, 1)]));
    expect(await subscription(ids.subscription)).toMatchObject({ product_id: 3, status: 'ACTIVE' });
    expect(await outboxCount(ids.subscription)).toBe(1);
  });

  it('when the domain is deleted, then its subscription ends (INACTIVE, end_date set)', async () => {
    const ids = await newDomain('p4');
    await waitFor(() => subscription(ids.subscription));
    const deleted = {
      event: 'domain.deleted',
      params: {
        id: ids.domain,
        domain: 'x.example.com',
        property_id: randomUUID(),
        company_id: randomUUID(),
        subscriptions: [ids.subscription],
      },
    };
    await publishEvents((await testInfra()).amqpUrl, t.exchange, 'p4', [deleted]);
    const ended = await waitFor(async () => {
      const row = await subscription(ids.subscription);
      return row?.status === 'INACTIVE' ? row : undefined;
    });
    expect(ended.end_date).toBeInstanceOf(Date);
  });
});
