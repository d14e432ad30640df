import { domainSchema } from '@platform/contracts';
import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

describe('list domains: filters and pagination', () => {
  let h: Harness;
  let p: TestPartner;
  const ids: string[] = [];
  const hosts: string[] = [];

  beforeAll(async () => {
    h = await startDomainsSvc();
    p = h.partner();
    // Five domains, created in order (newest last), with distinct attributes to filter on.
    const extras: Record<string, unknown>[] = [
      { has_docs: false, company_trade_name: 'Alpha Trading', merchant_id: 'mer-1', product: 'PRO' },
      { display_dpo: false, company_id_number: 'CIN-2', referral_partner_id: 'ref-1' },
      { company_trade_name: 'alphabet soup', product: 'ENTERPRISE', price_list: 'EU' },
      { has_scripts: false, company_name: 'Zeta Widgets Ltd' },
      {},
    ];
    for (const extra of extras) {
      const host = uniqueHost('list');
      const res = await h.call(p, 'POST', '/portal/domains', createBody(host, extra));
      ids.push(res.body.result.id);
      hosts.push(host);
    }
    // Another partner's domains must never show up.
    await h.call(h.partner(), 'POST', '/portal/domains', createBody(uniqueHost('other')));
  });
  afterAll(() => h?.close());

  const list = async (query = '') => h.call(p, 'GET', `/portal/domains${query ? `?${query}` : ''}`);
  const idsOf = (res: { body: { result: { id: string }[] } }) => res.body.result.map((d) => d.id);

  it('when listed without filters, then the newest come first with the Domain shape and meta.current_page only', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([...ids].reverse());
    expect(res.body.meta).toEqual({ current_page: 1 });
    for (const d of res.body.result) expect(domainSchema.strict().parse(d)).toEqual(d);
  });

  it('when paging with limit 2, then next_page and prev_page appear only when they exist', async () => {
    const first = await list('limit=2');
    expect(idsOf(first)).toEqual([ids[4], ids[3]]);
    expect(first.body.meta).toEqual({ current_page: 1, next_page: 2 });
    const second = await list('limit=2&page=2');
    expect(idsOf(second)).toEqual([ids[2], ids[1]]);
    expect(second.body.meta).toEqual({ current_page: 2, next_page: 3, prev_page: 1 });
    const last = await list('limit=2&page=3');
    expect(idsOf(last)).toEqual([ids[0]]);
    expect(last.body.meta).toEqual({ current_page: 3, prev_page: 2 });
    const beyond = await list('limit=2&page=9');
    expect(beyond.body).toEqual({ meta: { current_page: 9, prev_page: 8 }, result: [] });
  });

  it.each([
    ['has_docs=false', [0]],
    ['display_dpo=0', [1]],
    ['has_scripts=false&has_docs=true', [3]],
    ['company_trade_name=ALPHA', [2, 0]],
    // No trade name given: the displayed one is the company name, and the filter matches it.
    ['company_trade_name=zeta%20widg', [3]],
    ['company_id_number=CIN-2', [1]],
    ['merchant_id=mer-1', [0]],
    ['referral_partner_id=ref-1', [1]],
    ['source=API&status=NEW&widget_version=1&instance_id=7&limit=1&page=5', [0]],
    ['widget_version=2', []],
    ['id=not-a-uuid', []],
    ['unknown_param=1&limit=1', [4]],
  ] as [string, number[]][])(
    'when filtered by %s, then only the matching domains are listed',
    async (query, expected) => {
      const res = await list(query);
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual(expected.map((i) => ids[i]));
    },
  );

  it('when filtered by id, search, property or company id, then the matching domain is listed', async () => {
    const d = (await h.call(p, 'GET', `/portal/domains/${ids[1]}`)).body.result;
    expect(idsOf(await list(`id=${ids[1]}`))).toEqual([ids[1]]);
    expect(idsOf(await list(`search=${hosts[1].slice(0, 20).toUpperCase()}`))).toEqual([ids[1]]);
    expect(idsOf(await list(`search=${d.instance_property_id}`))).toEqual([ids[1]]);
    expect(idsOf(await list(`search=${ids[1]}`))).toEqual([ids[1]]);
    expect(idsOf(await list(`instance_property_id=${d.instance_property_id}`))).toEqual([ids[1]]);
    expect(idsOf(await list(`instance_company_id=${d.instance_company_id}`))).toEqual([ids[1]]);
    expect(idsOf(await list('search=%25'))).toEqual([]);
  });

  it('when filtered by created_at range, then the bounds apply', async () => {
    const d = (await h.call(p, 'GET', `/portal/domains/${ids[2]}`)).body.result;
    const from = encodeURIComponent(d.created_at);
    expect(idsOf(await list(`created_at_start=${from}`))).toEqual([ids[4], ids[3], ids[2]]);
    expect(idsOf(await list(`created_at_end=${from}`))).toEqual([ids[2], ids[1], ids[0]]);
    expect(idsOf(await list('activated_at_start=2020-01-01T00:00:00Z'))).toEqual([]);
  });

  it('when a domain is INACTIVE, then it is left out unless is_active=false or status=INACTIVE is asked', async () => {
    await h.setStatus(ids[3], 'ACTIVE');
    expect((await h.call(p, 'POST', `/portal/domains/${ids[3]}/deactivate`)).status).toBe(200);
    expect(idsOf(await list())).not.toContain(ids[3]);
    expect(idsOf(await list('is_active=false'))).toEqual([ids[3]]);
    expect(idsOf(await list('status=INACTIVE'))).toEqual([ids[3]]);
    expect(idsOf(await list('is_active=true&status=INACTIVE'))).toEqual([]);
    expect((await h.call(p, 'POST', `/portal/domains/${ids[3]}/activate`)).status).toBe(200);
    expect(idsOf(await list('status=ACTIVE'))).toEqual([ids[3]]);
  });

  it.each([
    ['limit=101', 'query.limit'],
    ['limit=0', 'query.limit'],
    ['page=0', 'query.page'],
    ['page=1.5', 'query.page'],
    ['is_active=yes', 'query.is_active'],
    ['status=GONE', 'query.status'],
    ['created_at_start=yesterday', 'query.created_at_start'],
    ['widget_version=x', 'query.widget_version'],
    ['instance_id=abc', 'query.instance_id'],
    // Deeper than MAX_LIST_DEPTH (100,000 rows): narrow with filters instead.
    ['page=1001&limit=100', 'query.page'],
    ['search=%00', 'query.search'],
    ['company_trade_name=a%00b', 'query.company_trade_name'],
  ])('when the query has %s, then 400 names %s', async (query, path) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('when filtered by product or price list, then only the domains whose subscription has it are listed; ids that are not numbers match none', async () => {
    expect(idsOf(await list('product_id=2'))).toEqual([ids[0]]);
    expect(idsOf(await list('product_id=2,3'))).toEqual([ids[2], ids[0]]);
    expect(idsOf(await list('product_id=2&product_id=3'))).toEqual([ids[2], ids[0]]);
    expect(idsOf(await list('product_id=1'))).toEqual([ids[4], ids[3], ids[1]]);
    expect(idsOf(await list('price_list_id=3'))).toEqual([ids[2]]);
    expect(idsOf(await list('product_id=abc'))).toEqual([]);
    expect(idsOf(await list('price_list_id=x'))).toEqual([]);
  });

  it('when filtered by subscription status, activity or presence, then the domain copy of the subscription decides', async () => {
    expect(idsOf(await list('subscription_status=ACTIVE'))).toEqual([...ids].reverse());
    expect(idsOf(await list('is_active_subscription=true&has_subscription=true'))).toEqual([...ids].reverse());
    // billing-svc reported one subscription ended; one domain predates the projection (no copy).
    await h.deps.db.updateTable('domains').set({ subscription_status: 'INACTIVE' }).where('id', '=', ids[4]).execute();
    await h.deps.db.updateTable('domains').set({ subscription_status: null }).where('id', '=', ids[3]).execute();
    expect(idsOf(await list('subscription_status=INACTIVE'))).toEqual([ids[4]]);
    expect(idsOf(await list('is_active_subscription=false'))).toEqual([ids[4], ids[3]]);
    expect(idsOf(await list('has_subscription=false'))).toEqual([ids[3]]);
    expect(idsOf(await list('is_active_subscription=true'))).toEqual([ids[2], ids[1], ids[0]]);
    expect((await list('subscription_status=SOMETIMES')).status).toBe(400);
  });
});
