import { randomUUID } from 'node:crypto';
import { envelope, waitFor } from '@platform/testing';
import { domainChanged, domainState, startMerchants, type MerchantsTest } from './support';

describe('merchants API', () => {
  let m: MerchantsTest;
  beforeAll(async () => {
    m = await startMerchants();
  });
  afterAll(() => m?.close());

  type Partner = ReturnType<MerchantsTest['partner']>;
  const create = async (p: Partner, body: Record<string, unknown>) => {
    const res = await p.call('POST', '/portal/merchants', body);
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.text}`);
    return res.body.result;
  };
  const issuePaths = (res: { body: { error: { data: { issues: { path: string }[] } } } }) =>
    res.body.error.data.issues.map((i) => i.path);
  const ids = (res: { body: { result: { merchant_id: string }[] } }) => res.body.result.map((r) => r.merchant_id);

  describe('create, read, update, delete', () => {
    it('when a merchant is created, then 201 answers every field (merchant_id trimmed, no domain yet) and a read answers the same', async () => {
      const p = m.partner();
      const res = await p.call('POST', '/portal/merchants', {
        merchant_id: '  shop-42 ',
        company_name: 'Shop Ltd',
        description: 'Our biggest shop',
        meta: { plan: 'gold', region: 'eu' },
        default_product: 'PRO',
        default_price_list: 'EUR_STANDARD',
        created_at: '2020-01-01T00:00:00Z',
        partner_id: 'someone-else',
      });
      expect(res.status).toBe(201);
      expect(res.body.result).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        merchant_id: 'shop-42',
        company_name: 'Shop Ltd',
        description: 'Our biggest shop',
        meta: { plan: 'gold', region: 'eu' },
        default_product: 'PRO',
        default_price_list: 'EUR_STANDARD',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        partner_id: p.id,
        registered_at: null,
        domain: null,
      });
      expect(Date.now() - Date.parse(res.body.result.created_at)).toBeLessThan(60_000);
      const read = await p.call('GET', `/portal/merchants/${res.body.result.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ result: res.body.result });
    });

    it('when only merchant_id is given, then the optional fields are null and meta is empty', async () => {
      const created = await create(m.partner(), { merchant_id: 'bare' });
      expect(created).toMatchObject({
        company_name: null,
        description: null,
        meta: {},
        default_product: null,
        default_price_list: null,
      });
    });

    it('when the partner already has the merchant_id, then 409 MERCHANT.ALREADY_EXISTS names the existing merchant; another partner may use it', async () => {
      const p = m.partner();
      const first = await create(p, { merchant_id: 'dup-1' });
      const again = await p.call('POST', '/portal/merchants', { merchant_id: ' dup-1', company_name: 'Other' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual(envelope('MERCHANT.ALREADY_EXISTS', 409));
      expect(again.body.error.data).toEqual({ id: first.id });
      expect((await m.partner().call('POST', '/portal/merchants', { merchant_id: 'dup-1' })).status).toBe(201);
    });

    it.each([
      ['merchant_id of 33 characters', { merchant_id: 'x'.repeat(33) }, 'body.merchant_id'],
      ['merchant_id of spaces only', { merchant_id: '   ' }, 'body.merchant_id'],
      ['no merchant_id', { company_name: 'Shop' }, 'body.merchant_id'],
      ['company_name of 101 characters', { merchant_id: 'a', company_name: 'c'.repeat(101) }, 'body.company_name'],
      ['description of 501 characters', { merchant_id: 'a', description: 'd'.repeat(501) }, 'body.description'],
      ['a meta value that is not a string', { merchant_id: 'a', meta: { plan: 1 } }, 'body.meta.plan'],
      ['a meta key with a dot', { merchant_id: 'a', meta: { 'a.b': 'x' } }, 'body.meta.a.b'],
      [
        '51 meta keys',
        { merchant_id: 'a', meta: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        'body.meta',
      ],
      ['an empty default_product', { merchant_id: 'a', default_product: '' }, 'body.default_product'],
    ])(
      'when a create has %s, then 400 VALIDATION.INVALID names the field and nothing is stored',
      async (_what, body, path) => {
        const p = m.partner();
        const res = await p.call('POST', '/portal/merchants', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
        expect(issuePaths(res)).toContain(path);
        expect((await p.call('GET', '/portal/merchants')).body.result).toEqual([]);
      },
    );

    it('when a merchant is updated, then only the fields sent change (null clears, meta is replaced) and updated_at moves', async () => {
      const p = m.partner();
      const created = await create(p, {
        merchant_id: 'up-1',
        company_name: 'Before',
        description: 'keep me',
        meta: { a: '1', b: '2' },
        default_product: 'PRO',
      });
      const res = await p.call('PUT', `/portal/merchants/${created.id}`, {
        company_name: 'After',
        default_product: null,
        meta: { c: '3' },
      });
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({
        ...created,
        company_name: 'After',
        default_product: null,
        meta: { c: '3' },
        updated_at: expect.any(String),
      });
      expect(Date.parse(res.body.result.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
      expect((await p.call('GET', `/portal/merchants/${created.id}`)).body.result).toEqual(res.body.result);
      const renamed = await p.call('PUT', `/portal/merchants/${created.id}`, { merchant_id: ' up-2 ' });
      expect(renamed.body.result).toMatchObject({ merchant_id: 'up-2', company_name: 'After', description: 'keep me' });
    });

    it('when an update takes a merchant_id another merchant of the partner has, then 409 names that merchant; its own merchant_id is fine', async () => {
      const p = m.partner();
      const [a, b] = [await create(p, { merchant_id: 'a' }), await create(p, { merchant_id: 'b' })];
      const res = await p.call('PUT', `/portal/merchants/${b.id}`, { merchant_id: 'a', company_name: 'lost' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual(envelope('MERCHANT.ALREADY_EXISTS', 409));
      expect(res.body.error.data).toEqual({ id: a.id });
      expect((await p.call('GET', `/portal/merchants/${b.id}`)).body.result).toMatchObject({
        merchant_id: 'b',
        company_name: null,
      });
      expect((await p.call('PUT', `/portal/merchants/${b.id}`, { merchant_id: 'b' })).status).toBe(200);
    });

    it.each([
      ['a new merchant_id of 33 characters', { merchant_id: 'x'.repeat(33) }, 'body.merchant_id'],
      ['merchant_id of 205 characters', { merchant_id: 'x'.repeat(205) }, 'body.merchant_id'],
      ['company_name of 101 characters', { company_name: 'c'.repeat(101) }, 'body.company_name'],
      ['description of 501 characters', { description: 'd'.repeat(501) }, 'body.description'],
      ['a meta value that is not a string', { meta: { plan: true } }, 'body.meta.plan'],
    ])('when an update has %s, then 400 names the field and the merchant is unchanged', async (_what, body, path) => {
      const p = m.partner();
      const created = await create(p, { merchant_id: 'same' });
      const res = await p.call('PUT', `/portal/merchants/${created.id}`, body);
      expect(res.status).toBe(400);
      expect(issuePaths(res)).toContain(path);
      expect((await p.call('GET', `/portal/merchants/${created.id}`)).body.result).toEqual(created);
    });

    it('when a merchant is renamed with an Idempotency-Key, then the answer and its replay show the renamed merchant', async () => {
      const p = m.partner();
      const created = await create(p, { merchant_id: 'keyed-old', company_name: 'Keyed' });
      const key = { 'Idempotency-Key': `rename-${created.id}` };
      const body = { merchant_id: 'keyed-new', description: 'renamed' };
      const renamed = await p.call('PUT', `/portal/merchants/${created.id}`, body, key);
      expect(renamed.status).toBe(200);
      expect(renamed.body.result).toMatchObject({ id: created.id, merchant_id: 'keyed-new', description: 'renamed' });
      expect(renamed.body.result).toEqual((await p.call('GET', `/portal/merchants/${created.id}`)).body.result);
      const replayed = await p.call('PUT', `/portal/merchants/${created.id}`, body, key);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.text).toBe(renamed.text);
    });

    it('when merchant_id has 32 characters, then a create and a rename take it (the spec: 1 to 32 on the merchants API)', async () => {
      const p = m.partner();
      const created = await create(p, { merchant_id: 'c'.repeat(32) });
      const renamed = await p.call('PUT', `/portal/merchants/${created.id}`, { merchant_id: 'r'.repeat(32) });
      expect({ status: renamed.status, merchant_id: renamed.body.result?.merchant_id }).toEqual({
        status: 200,
        merchant_id: 'r'.repeat(32),
      });
    });

    it('when a merchant a domain made has a merchant_id of 204 characters, then an update that keeps it or leaves it out is taken, and renaming it to another of 33+ is a 400', async () => {
      const p = m.partner();
      const long = 'L'.repeat(204);
      await m.publish(domainChanged(p.id, domainState({ merchants: [long] }), 1));
      const made = await waitFor(
        async () => (await p.call('GET', `/portal/merchants?merchant_id=${long}`)).body.result[0],
        { what: 'the merchant the domain made' },
      );
      expect(made.merchant_id).toBe(long);
      const kept = await p.call('PUT', `/portal/merchants/${made.id}`, { merchant_id: long, description: 'as read' });
      expect({ status: kept.status, merchant_id: kept.body.result?.merchant_id }).toEqual({
        status: 200,
        merchant_id: long,
      });
      const omitted = await p.call('PUT', `/portal/merchants/${made.id}`, { company_name: 'Long Ltd' });
      expect({ status: omitted.status, merchant_id: omitted.body.result?.merchant_id }).toEqual({
        status: 200,
        merchant_id: long,
      });
      const renamed = await p.call('PUT', `/portal/merchants/${made.id}`, { merchant_id: 'M'.repeat(204) });
      expect(renamed.body).toEqual(envelope('VALIDATION.INVALID', 400));
      expect(issuePaths(renamed)).toEqual(['body.merchant_id']);
      expect((await p.call('GET', `/portal/merchants/${made.id}`)).body.result.merchant_id).toBe(long);
    });

    it('when a merchant is deleted, then it answers {deleted: true} and is gone (read and second delete: 404)', async () => {
      const p = m.partner();
      const created = await create(p, { merchant_id: 'del' });
      const res = await p.call('DELETE', `/portal/merchants/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: { deleted: true } });
      expect((await p.call('GET', `/portal/merchants/${created.id}`)).body).toEqual(
        envelope('RESOURCE.NOT_FOUND', 404),
      );
      expect((await p.call('DELETE', `/portal/merchants/${created.id}`)).status).toBe(404);
      expect((await p.call('POST', '/portal/merchants', { merchant_id: 'del' })).status).toBe(201);
    });

    it("when a partner uses another partner's merchant id, an unknown id or no uuid at all, then get, update and delete answer 404 and change nothing", async () => {
      const owner = m.partner();
      const theirs = await create(owner, { merchant_id: 'private', company_name: 'Owner' });
      const stranger = m.partner();
      for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
        for (const [method, body] of [['GET'], ['PUT', { company_name: 'Stolen' }], ['DELETE']] as const) {
          const res = await stranger.call(method, `/portal/merchants/${id}`, body);
          expect([method, id, res.status, res.body]).toEqual([method, id, 404, envelope('RESOURCE.NOT_FOUND', 404)]);
        }
      }
      expect((await owner.call('GET', `/portal/merchants/${theirs.id}`)).body.result).toEqual(theirs);
    });

    it('when the key lacks merchants:write, then a create is 403 AUTH.FORBIDDEN', async () => {
      const { token } = m.t.partner({ permissions: ['merchants:read'] });
      const res = await fetch(`${m.t.url}/portal/merchants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"merchant_id":"x"}',
      });
      expect(res.status).toBe(403);
    });
  });

  describe('list', () => {
    it('when a partner pages through its merchants, then they come newest first with current, next and prev pages, and only its own', async () => {
      const p = m.partner();
      await create(m.partner(), { merchant_id: 'not-mine' });
      for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) await create(p, { merchant_id: id });
      const first = await p.call('GET', '/portal/merchants?limit=2');
      expect(first.status).toBe(200);
      expect([ids(first), first.body.meta]).toEqual([['m5', 'm4'], { current_page: 1, next_page: 2 }]);
      const second = await p.call('GET', '/portal/merchants?limit=2&page=2');
      expect([ids(second), second.body.meta]).toEqual([['m3', 'm2'], { current_page: 2, next_page: 3, prev_page: 1 }]);
      const last = await p.call('GET', '/portal/merchants?limit=2&page=3');
      expect([ids(last), last.body.meta]).toEqual([['m1'], { current_page: 3, prev_page: 2 }]);
      const all = await p.call('GET', '/portal/merchants');
      expect([ids(all), all.body.meta]).toEqual([['m5', 'm4', 'm3', 'm2', 'm1'], { current_page: 1 }]);
    });

    it.each([
      ['limit=101'],
      ['limit=0'],
      ['page=0'],
      ['page=1.5'],
      ['is_registered=yes'],
      ['created_at_start=yesterday'],
      ['meta.a.b=1'],
      ['meta.=1'],
      ['meta.plan=gold&meta.plan=silver'],
    ])('when the query has %s, then 400 VALIDATION.INVALID', async (query) => {
      const res = await m.partner().call('GET', `/portal/merchants?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
    });

    it('when an unknown query parameter is sent, then it is ignored (as on domains)', async () => {
      const p = m.partner();
      await create(p, { merchant_id: 'kept' });
      expect(ids(await p.call('GET', '/portal/merchants?colour=blue&metadata=x'))).toEqual(['kept']);
    });

    it('when filtered by search, then merchant_id, company_name and description match case-insensitively as parts, LIKE characters literally', async () => {
      const p = m.partner();
      await create(p, { merchant_id: 'ACME-1' });
      await create(p, { merchant_id: 'x-2', company_name: 'The Acme Company' });
      await create(p, { merchant_id: 'x-3', description: 'resells acme goods' });
      await create(p, { merchant_id: 'x-4', company_name: 'Other', description: '100% cotton' });
      expect(ids(await p.call('GET', '/portal/merchants?search=aCmE'))).toEqual(['x-3', 'x-2', 'ACME-1']);
      expect(ids(await p.call('GET', '/portal/merchants?search=0%25'))).toEqual(['x-4']);
      expect(ids(await p.call('GET', '/portal/merchants?search=_'))).toEqual([]);
    });

    it('when filtered by merchant_id, then only that exact merchant_id', async () => {
      const p = m.partner();
      for (const id of ['shop', 'shop-2', 'SHOP']) await create(p, { merchant_id: id });
      expect(ids(await p.call('GET', '/portal/merchants?merchant_id=shop'))).toEqual(['shop']);
    });

    it('when filtered by created_at_start and created_at_end, then both bounds are inclusive', async () => {
      const p = m.partner();
      const [a, b, c] = [
        await create(p, { merchant_id: 'a' }),
        await create(p, { merchant_id: 'b' }),
        await create(p, { merchant_id: 'c' }),
      ];
      const q = (params: string) => p.call('GET', `/portal/merchants?${params}`).then(ids);
      expect(await q(`created_at_start=${encodeURIComponent(b.created_at)}`)).toEqual(['c', 'b']);
      expect(await q(`created_at_end=${encodeURIComponent(b.created_at)}`)).toEqual(['b', 'a']);
      expect(
        await q(
          `created_at_start=${encodeURIComponent(b.created_at)}&created_at_end=${encodeURIComponent(b.created_at)}`,
        ),
      ).toEqual(['b']);
      expect(
        await q(
          `created_at_start=${encodeURIComponent(a.created_at)}&created_at_end=${encodeURIComponent(c.created_at)}`,
        ),
      ).toEqual(['c', 'b', 'a']);
      // The same instant as b's created_at, written with a +02:00 offset.
      const bInBerlin = new Date(Date.parse(b.created_at) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
      expect(await q(`created_at_start=${encodeURIComponent(bInBerlin)}`)).toEqual(['c', 'b']);
    });

    it('when filtered by meta.<key>=<value>, then every pair must match', async () => {
      const p = m.partner();
      await create(p, { merchant_id: 'gold-eu', meta: { plan: 'gold', region: 'eu' } });
      await create(p, { merchant_id: 'gold-us', meta: { plan: 'gold', region: 'us' } });
      await create(p, { merchant_id: 'silver-eu', meta: { plan: 'silver', region: 'eu' } });
      await create(p, { merchant_id: 'none' });
      expect(ids(await p.call('GET', '/portal/merchants?meta.plan=gold'))).toEqual(['gold-us', 'gold-eu']);
      expect(ids(await p.call('GET', '/portal/merchants?meta.plan=gold&meta.region=eu'))).toEqual(['gold-eu']);
      expect(ids(await p.call('GET', '/portal/merchants?meta.plan=GOLD'))).toEqual([]);
      expect(ids(await p.call('GET', '/portal/merchants?meta.plan=gold&search=us&limit=1'))).toEqual(['gold-us']);
    });
  });
});
