import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { waitFor } from '@platform/testing';
import { sharedSystem, startSystem, type OwnSystem, type Partner, type System } from './support/system';

interface MerchantView {
  id: string;
  merchant_id: string;
  registered_at: string | null;
  domain: { id: string } | null;
}

/** The issue paths of a 400 VALIDATION.INVALID answer. */
const issuePaths = (res: {
  status: number;
  body: { error?: { code: string; data?: { issues?: { path: string }[] } } };
}) => {
  expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code: 'VALIDATION.INVALID' });
  return (res.body.error?.data?.issues ?? []).map((i) => i.path);
};

describe('merchant links are to the merchant itself: renames carry them, deletes clear them (issue 16, items 4 and 5)', () => {
  let sys: System;
  let partner: Partner;
  let db: Client;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await sharedSystem();
    partner = await sys.partner();
    db = await sys.db();
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  const createDomain = async (merchantId: string) => {
    const host = `links-${randomUUID().slice(0, 8)}.example.com`;
    return (
      await sys.arrange(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: `Links ${host}`,
        account_email: `o@${host}`,
        company_setup: true,
        merchant_id: merchantId,
      })
    ).body.result as { id: string; hostname: string };
  };
  const merchantsWith = async (merchantId: string) =>
    (await sys.arrange(partner, 'GET', `/portal/merchants?merchant_id=${encodeURIComponent(merchantId)}`)).body
      .result as MerchantView[];
  const merchant = async (id: string) =>
    (await sys.arrange(partner, 'GET', `/portal/merchants/${id}`)).body.result as MerchantView;
  const domainMerchants = async (domainId: string) =>
    (await sys.arrange(partner, 'GET', `/portal/domains/${domainId}`)).body.result.merchants as string[];
  const domainsWith = async (merchantId: string) =>
    (
      (await sys.arrange(partner, 'GET', `/portal/domains?merchant_id=${encodeURIComponent(merchantId)}`)).body
        .result as { id: string }[]
    ).map((d) => d.id);
  /** The merchants the newest domain.changed of the domain carries (what every projection is told). */
  const projectedMerchants = async (domainId: string) => {
    const { rows } = await db.query(
      `SELECT message->'payload'->'params'->'domain'->'merchants' AS merchants FROM domains.outbox
        WHERE routing_key = 'domain.changed' AND message->>'aggregate_id' = $1 ORDER BY (message->>'version')::int DESC LIMIT 1`,
      [domainId],
    );
    return rows[0]?.merchants as string[];
  };

  it("when a linked merchant is renamed, then the very next reads show the new merchant_id: the domain, both filters, domain.changed and the merchant's domain; a domain created with the new id joins the same merchant and its webhook names it", async () => {
    const d1 = await createDomain('ren-old');
    const [m] = await merchantsWith('ren-old');
    expect(
      (await sys.arrange(partner, 'PUT', `/portal/merchants/${m.id}`, { merchant_id: 'ren-new' })).body.result
        .merchant_id,
    ).toBe('ren-new');

    expect(await domainMerchants(d1.id)).toEqual(['ren-new']);
    expect(await domainsWith('ren-new')).toEqual([d1.id]);
    expect(await domainsWith('ren-old')).toEqual([]);
    expect(await projectedMerchants(d1.id)).toEqual(['ren-new']);
    expect(await merchant(m.id)).toMatchObject({
      merchant_id: 'ren-new',
      registered_at: expect.any(String),
      domain: { id: d1.id },
    });
    expect(await merchantsWith('ren-old')).toEqual([]);

    const at = `/links-${randomUUID().slice(0, 8)}`;
    await sys.arrange(partner, 'POST', '/portal/webhooks', { url: `${receiver.url}${at}`, events: ['domain.created'] });
    const d2 = await createDomain('ren-new');
    const hook = await waitFor(() => receiver.received.find((r) => r.path === at), {
      timeoutMs: 15_000,
      what: 'the domain.created webhook',
    });
    expect(JSON.parse(hook.body).params).toMatchObject({ domain_id: d2.id, merchant_id: 'ren-new' });
    expect((await merchantsWith('ren-new')).map((x) => x.id)).toEqual([m.id]);
    expect((await merchant(m.id)).domain).toMatchObject({ id: d2.id });
    expect((await domainsWith('ren-new')).sort()).toEqual([d1.id, d2.id].sort());
  });

  it('when a linked merchant is deleted, then no domain shows its merchant_id (read, filter, domain.changed), and a merchant created with that id later starts unlinked', async () => {
    const d = await createDomain('del-1');
    const [m] = await merchantsWith('del-1');
    await sys.arrange(partner, 'DELETE', `/portal/merchants/${m.id}`);

    expect(await domainMerchants(d.id)).toEqual([]);
    expect(await domainsWith('del-1')).toEqual([]);
    expect(await projectedMerchants(d.id)).toEqual([]);
    const again = (await sys.arrange(partner, 'POST', '/portal/merchants', { merchant_id: 'del-1' })).body
      .result as MerchantView;
    expect(again).toMatchObject({ registered_at: null, domain: null });
    expect(await domainsWith('del-1')).toEqual([]);
  });

  it('when a merchant is renamed, then a merchant or a domain made later with the old id starts apart from it: the renamed merchant keeps its domain', async () => {
    const d1 = await createDomain('old-1');
    const [renamed] = await merchantsWith('old-1');
    await sys.arrange(partner, 'PUT', `/portal/merchants/${renamed.id}`, { merchant_id: 'new-1' });

    const fresh = (await sys.arrange(partner, 'POST', '/portal/merchants', { merchant_id: 'old-1' })).body
      .result as MerchantView;
    expect(fresh).toMatchObject({ registered_at: null, domain: null });
    const d2 = await createDomain('old-1');
    expect(await merchant(fresh.id)).toMatchObject({
      merchant_id: 'old-1',
      registered_at: expect.any(String),
      domain: { id: d2.id },
    });
    expect(await merchant(renamed.id)).toMatchObject({ merchant_id: 'new-1', domain: { id: d1.id } });
    expect(await domainMerchants(d1.id)).toEqual(['new-1']);
    expect(await domainsWith('old-1')).toEqual([d2.id]);
  });

  it('when a domain create names a merchant_id of 204 characters, then the merchant it made keeps it (an update may send it back), while the merchants API gives no new one past 32 characters; 205 is a 400 on each path', async () => {
    const long = (c: string) => c.repeat(204);
    const d = await createDomain(long('a'));
    const [made] = await merchantsWith(long('a'));
    const kept = await sys.call(partner, 'PUT', `/portal/merchants/${made.id}`, {
      merchant_id: long('a'),
      description: 'sent back as read',
    });
    expect(kept.status).toBe(200);
    expect(await domainsWith(long('a'))).toEqual([d.id]);
    expect(
      issuePaths(await sys.call(partner, 'PUT', `/portal/merchants/${made.id}`, { merchant_id: 'b'.repeat(33) })),
    ).toEqual(['body.merchant_id']);
    expect(issuePaths(await sys.call(partner, 'POST', '/portal/merchants', { merchant_id: 'c'.repeat(33) }))).toEqual([
      'body.merchant_id',
    ]);
    expect(
      (await sys.call(partner, 'PUT', `/portal/merchants/${made.id}`, { merchant_id: 'b'.repeat(32) })).status,
    ).toBe(200);
    expect(await domainMerchants(d.id)).toEqual(['b'.repeat(32)]);

    const tooLong = 'z'.repeat(205);
    const host = `links-${randomUUID().slice(0, 8)}.example.com`;
    expect(
      issuePaths(
        await sys.call(partner, 'POST', '/portal/domains', {
          domain: host,
          company_name: 'Too long',
          account_email: `o@${host}`,
          merchant_id: tooLong,
        }),
      ),
    ).toEqual(['body.merchant_id']);
    expect(issuePaths(await sys.call(partner, 'POST', '/portal/merchants', { merchant_id: tooLong }))).toEqual([
      'body.merchant_id',
    ]);
    expect(
      issuePaths(await sys.call(partner, 'PUT', `/portal/merchants/${made.id}`, { merchant_id: tooLong })),
    ).toEqual(['body.merchant_id']);
    expect(issuePaths(await sys.call(partner, 'GET', `/portal/merchants?merchant_id=${tooLong}`))).toEqual([
      'query.merchant_id',
    ]);
    expect(issuePaths(await sys.call(partner, 'GET', `/portal/domains?merchant_id=${tooLong}`))).toEqual([
      'query.merchant_id',
    ]);
  });
});

describe('a rename and a delete show at once without the bus: merchants-svc hands merchant.changed to domains-svc before answering (a platform of its own, no outbox relay)', () => {
  let sys: OwnSystem;
  let partner: Partner;

  beforeAll(async () => {
    sys = await startSystem({ OUTBOX_RELAY_ENABLED: 'false' });
    partner = await sys.partner();
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('when no event leaves any outbox, then the next domain reads still show a rename, then a delete', async () => {
    const host = `links-${randomUUID().slice(0, 8)}.example.com`;
    const d = (
      await sys.arrange(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: `Links ${host}`,
        account_email: `o@${host}`,
        merchant_id: 'push-old',
      })
    ).body.result;
    const [m] = (await sys.arrange(partner, 'GET', '/portal/merchants?merchant_id=push-old')).body
      .result as MerchantView[];
    await sys.arrange(partner, 'PUT', `/portal/merchants/${m.id}`, { merchant_id: 'push-new' });
    expect((await sys.arrange(partner, 'GET', `/portal/domains/${d.id}`)).body.result.merchants).toEqual(['push-new']);
    expect(
      (await sys.arrange(partner, 'GET', '/portal/domains?merchant_id=push-new')).body.result.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([d.id]);
    await sys.arrange(partner, 'DELETE', `/portal/merchants/${m.id}`);
    expect((await sys.arrange(partner, 'GET', `/portal/domains/${d.id}`)).body.result.merchants).toEqual([]);
  });
});
