import { sql } from '@platform/db';
import { envelope, waitFor } from '@platform/testing';
import { domainChanged, domainDeleted, domainState, startMerchants, type MerchantsTest } from './support';

describe('merchants follow domains (domain.changed, domain.deleted)', () => {
  let m: MerchantsTest;
  beforeAll(async () => {
    m = await startMerchants();
  });
  afterAll(() => m?.close());

  type Partner = ReturnType<MerchantsTest['partner']>;
  const merchantNamed = async (p: Partner, merchantId: string) => {
    const res = await p.call('GET', `/portal/merchants?merchant_id=${encodeURIComponent(merchantId)}`);
    return res.body.result[0];
  };
  /** The merchant.changed states merchants-svc wrote to its outbox for this merchant, oldest first. */
  const merchantChanges = async (merchantId: string) => {
    const { rows } = await sql<{ state: unknown }>`
      SELECT message->'payload'->'params'->'merchant' AS state FROM outbox
      WHERE routing_key = 'merchant.changed' AND message->>'aggregate_id' = ${merchantId} ORDER BY (message->>'version')::int`.execute(
      m.db,
    );
    return rows.map((r) => r.state);
  };
  const push = (partnerId: string, message: unknown) =>
    m.asService(partnerId, 'POST', '/internal/merchants/events', message);
  /**
   * Publishes a domain.changed of a domain of its own behind what the test published, and waits
   * until its merchant exists: the messages ahead of it were delivered first.
   */
  const settle = async (p: Partner) => {
    const marker = domainState({ merchants: [`marker-${Date.now()}-${Math.random()}`] });
    await m.publish(domainChanged(p.id, marker, 1));
    await waitFor(() => merchantNamed(p, marker.merchants[0]), { what: 'the marker merchant' });
  };

  it('when a domain names a merchant the partner does not have, then the merchant appears registered, with the domain, and a newer version updates it', async () => {
    const p = m.partner();
    const domain = domainState({ merchants: ['m-1'], status: 'NEW' });
    const v1 = domainChanged(p.id, domain, 1);
    await m.publish(v1);
    const created = await waitFor(() => merchantNamed(p, 'm-1'), { what: 'merchant m-1' });
    expect(created).toEqual({
      id: expect.any(String),
      merchant_id: 'm-1',
      company_name: null,
      description: null,
      meta: {},
      default_product: null,
      default_price_list: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      partner_id: p.id,
      registered_at: v1.occurred_at,
      domain: {
        id: domain.id,
        hostname: domain.hostname,
        status: 'NEW',
        is_active: true,
        created_at: domain.created_at,
        email: 'owner@example.com',
        source: 'API',
      },
    });
    expect((await p.call('GET', `/portal/merchants/${created.id}`)).body.result).toEqual(created);

    await m.publish(domainChanged(p.id, { ...domain, status: 'ACTIVE', hostname: 'renamed.example.com' }, 3));
    const updated = await waitFor(
      async () => {
        const merchant = await merchantNamed(p, 'm-1');
        return merchant.domain.status === 'ACTIVE' ? merchant : undefined;
      },
      { what: 'version 3 applied' },
    );
    expect(updated).toEqual({
      ...created,
      domain: { ...created.domain, status: 'ACTIVE', hostname: 'renamed.example.com' },
    });

    await m.publish(domainChanged(p.id, { ...domain, status: 'INVITED' }, 2));
    await settle(p);
    expect(await merchantNamed(p, 'm-1')).toEqual(updated);
  });

  it('when the partner already has the merchant, then the domain links it: registered_at is set once, company and meta stay', async () => {
    const p = m.partner();
    const own = (
      await p.call('POST', '/portal/merchants', {
        merchant_id: 'mine',
        company_name: 'Mine Ltd',
        meta: { plan: 'gold' },
      })
    ).body.result;
    const domain = domainState({ merchants: ['mine'] });
    const v1 = domainChanged(p.id, domain, 1);
    expect((await push(p.id, v1)).body).toEqual({ result: { applied: true } });
    const linked = (await p.call('GET', `/portal/merchants/${own.id}`)).body.result;
    expect(linked).toMatchObject({
      company_name: 'Mine Ltd',
      meta: { plan: 'gold' },
      registered_at: v1.occurred_at,
      domain: { id: domain.id },
    });
    await push(p.id, domainChanged(p.id, { ...domain, status: 'INVITED' }, 2));
    expect((await p.call('GET', `/portal/merchants/${own.id}`)).body.result).toMatchObject({
      registered_at: v1.occurred_at,
      domain: { status: 'INVITED' },
    });
  });

  it('when filtered by is_registered, then true lists merchants a domain names and false the others', async () => {
    const p = m.partner();
    await p.call('POST', '/portal/merchants', { merchant_id: 'loose' });
    await push(p.id, domainChanged(p.id, domainState({ merchants: ['linked-1', 'linked-2'] }), 1));
    const ids = async (query: string) =>
      (await p.call('GET', `/portal/merchants?${query}`)).body.result
        .map((r: { merchant_id: string }) => r.merchant_id)
        .sort();
    expect(await ids('is_registered=true')).toEqual(['linked-1', 'linked-2']);
    expect(await ids('is_registered=1')).toEqual(['linked-1', 'linked-2']);
    expect(await ids('is_registered=false')).toEqual(['loose']);
  });

  it('when a domain stops naming a merchant, or another domain names it later, then its domain is the newest link that still exists', async () => {
    const p = m.partner();
    const first = domainState({ merchants: ['a', 'shared'] });
    const second = domainState({ merchants: ['shared'] });
    await push(p.id, domainChanged(p.id, first, 1));
    await push(p.id, domainChanged(p.id, second, 1));
    expect((await merchantNamed(p, 'shared')).domain.id).toBe(second.id);

    await push(p.id, domainChanged(p.id, { ...first, merchants: ['shared'] }, 2));
    expect(await merchantNamed(p, 'a')).toMatchObject({ domain: null, registered_at: expect.any(String) });
    expect((await merchantNamed(p, 'shared')).domain.id).toBe(second.id);

    await m.publish(domainDeleted(p.id, second, 2));
    await waitFor(async () => (await merchantNamed(p, 'shared')).domain.id === first.id, {
      what: 'the link to the deleted domain gone',
    });
    await push(p.id, domainDeleted(p.id, first, 3));
    expect(await merchantNamed(p, 'shared')).toMatchObject({ domain: null, registered_at: expect.any(String) });
    // A stale change of the deleted domain links nothing again.
    await push(p.id, domainChanged(p.id, first, 2));
    expect((await merchantNamed(p, 'shared')).domain).toBeNull();
  });

  it('when domains-svc pushes an event and RabbitMQ delivers the same message later, then it is applied once and the consumer skips the copy', async () => {
    const p = m.partner();
    const message = domainChanged(p.id, domainState({ merchants: ['pushed'] }), 1);
    const res = await push(p.id, message);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { applied: true } });
    // Read-your-writes: the merchant is there as soon as the push answers.
    expect(await merchantNamed(p, 'pushed')).toMatchObject({
      merchant_id: 'pushed',
      domain: { id: message.aggregate_id },
    });
    expect((await push(p.id, message)).body).toEqual({ result: { applied: false } });

    await m.publish(message);
    await settle(p);
    const { rows } = await sql<{
      consumer: string;
    }>`SELECT consumer FROM processed_messages WHERE message_id = ${message.id}`.execute(m.db);
    expect(rows).toEqual([{ consumer: m.queue }]);
    const merchants = await m.db
      .selectFrom('merchants')
      .select('id')
      .where('partner_id', '=', p.id)
      .where('merchant_id', '=', 'pushed')
      .execute();
    expect(merchants).toHaveLength(1);
  });

  it("when a pushed event is another partner's, not valid, or sent with a gateway token, then 404, 400 and 403, and nothing is applied", async () => {
    const p = m.partner();
    const message = domainChanged(p.id, domainState({ merchants: ['nope'] }), 1);
    expect((await push('someone-else', message)).body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    const invalid = {
      ...message,
      payload: { event: 'domain.changed', params: { change: 'updated', domain: { id: 'x' } } },
    };
    const bad = await push(p.id, invalid);
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.issues.map((i: { path: string }) => i.path)).toContain(
      'body.payload.params.domain.hostname',
    );
    expect((await p.call('POST', '/internal/merchants/events', message)).status).toBe(403);
    expect((await p.call('GET', '/portal/merchants')).body.result).toEqual([]);
  });

  it('when a merchant is deleted, then its links go with it, merchant.changed names them, and a later state of the domain naming its merchant_id does not make it again', async () => {
    const p = m.partner();
    const domain = domainState({ merchants: ['gone'] });
    await push(p.id, domainChanged(p.id, domain, 1));
    const merchant = await merchantNamed(p, 'gone');
    expect((await p.call('DELETE', `/portal/merchants/${merchant.id}`)).body).toEqual({ result: { deleted: true } });
    const links = await m.db.selectFrom('domain_links').select('domain_id').where('partner_id', '=', p.id).execute();
    expect(links).toEqual([]);
    expect(await merchantChanges(merchant.id)).toContainEqual({
      id: merchant.id,
      merchant_id: 'gone',
      deleted: true,
      links: [{ domain_id: domain.id, requested_as: 'gone' }],
    });
    await push(p.id, domainChanged(p.id, { ...domain, status: 'ACTIVE' }, 2));
    expect(await merchantNamed(p, 'gone')).toBeUndefined();
  });

  it('when a linked merchant takes another merchant_id, then the link goes with it (merchant.changed names it), and a merchant created later with the old merchant_id starts unlinked', async () => {
    const p = m.partner();
    const domain = domainState({ merchants: ['old-id'] });
    const v1 = domainChanged(p.id, domain, 1);
    await push(p.id, v1);
    const linked = await merchantNamed(p, 'old-id');
    const renamed = (await p.call('PUT', `/portal/merchants/${linked.id}`, { merchant_id: 'new-id' })).body.result;
    expect(renamed).toMatchObject({ merchant_id: 'new-id', registered_at: v1.occurred_at, domain: { id: domain.id } });
    expect(await merchantChanges(linked.id)).toContainEqual({
      id: linked.id,
      merchant_id: 'new-id',
      deleted: false,
      links: [{ domain_id: domain.id, requested_as: 'old-id' }],
    });
    const recreated = (await p.call('POST', '/portal/merchants', { merchant_id: 'old-id' })).body.result;
    expect(recreated).toMatchObject({ registered_at: null, domain: null });
    // A state domains-svc wrote before it learnt the merchant's id still names the old merchant_id: it stays with the renamed merchant.
    await push(p.id, domainChanged(p.id, { ...domain, status: 'ACTIVE' }, 2));
    expect((await p.call('GET', `/portal/merchants/${linked.id}`)).body.result.domain).toMatchObject({
      id: domain.id,
      status: 'ACTIVE',
    });
    expect((await p.call('GET', `/portal/merchants/${recreated.id}`)).body.result.domain).toBeNull();
  });

  it("when domains-svc asks for a merchant's defaults by merchant_id, then it gets them (URL-encoded ids too), 404 for an unknown one or another partner's", async () => {
    const p = m.partner();
    const created = (
      await p.call('POST', '/portal/merchants', {
        merchant_id: 'shop/42 ü',
        default_product: 'PRO',
        default_price_list: 'EUR',
      })
    ).body.result;
    const res = await m.asService(p.id, 'GET', `/internal/merchants/by-merchant-id/${encodeURIComponent('shop/42 ü')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: { id: created.id, merchant_id: 'shop/42 ü', default_product: 'PRO', default_price_list: 'EUR' },
    });
    expect((await m.asService(p.id, 'GET', '/internal/merchants/by-merchant-id/unknown')).body).toEqual(
      envelope('RESOURCE.NOT_FOUND', 404),
    );
    expect(
      (
        await m.asService(
          m.partner().id,
          'GET',
          `/internal/merchants/by-merchant-id/${encodeURIComponent('shop/42 ü')}`,
        )
      ).status,
    ).toBe(404);
  });
});
