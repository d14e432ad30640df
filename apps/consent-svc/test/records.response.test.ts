import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { sql } from '@platform/db';
import { act, envelope, waitFor } from '@platform/testing';
import { scopeDomains } from '../src/db/records.repository';
import { SCHEMA } from '../src/db/tables';
import { receipt, receiptsPath, startConsent, type ConsentTest } from './support';

describe('records API: GET /portal/instance/company/records[/{id}]', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  type Partner = ReturnType<ConsentTest['partner']>;
  const categories = {
    ALLOWED: { functional: true, analytics: true, marketing: true },
    DENIED: { functional: false, analytics: false, marketing: false },
    PARTIAL: { functional: true, analytics: false, marketing: false },
  };
  /** Records on the domain, one per status given, in that order (oldest first); answers their ids. */
  const record = async (
    domain: { hostname: string; property_id: string },
    ...statuses: (keyof typeof categories)[]
  ) => {
    const ids: string[] = [];
    for (const status of statuses) {
      const res = await c.widget('POST', receiptsPath(domain.property_id), {
        origin: `https://${domain.hostname}`,
        body: receipt({ categories: categories[status] }),
      });
      ids.push(res.body.result.receipt_id);
      // created_at has millisecond precision: the next record is made in a later millisecond, so newest-first is one order.
      const at = Date.parse(res.body.result.created_at);
      await waitFor(() => Date.now() > at, { what: 'the next millisecond' });
    }
    return ids;
  };
  const ids = async (p: Partner, query: string) => {
    const res = await p.get(`/portal/instance/company/records?${query}`);
    expect(res.status).toBe(200);
    return res.body.result.map((r: { receipt_id: string }) => r.receipt_id);
  };

  it('when neither merchant_id nor domain_id is given, then list and get answer 400 naming both', async () => {
    const p = c.partner();
    for (const path of [
      '/portal/instance/company/records',
      `/portal/instance/company/records?property_id=${randomUUID()}`,
      '/portal/instance/company/records/RCPT_x',
    ]) {
      const res = await p.get(path);
      expect([res.status, res.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
      expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toEqual([
        'query.merchant_id',
        'query.domain_id',
      ]);
    }
  });

  it('when property_id is not a UUID or merchant_id is blank or past 204 characters, then 400 VALIDATION.INVALID naming it, as the other lists answer', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id, { merchants: ['m-1'] });
    await record(domain, 'ALLOWED');
    for (const [query, path] of [
      [`domain_id=${domain.id}&property_id=zzz`, 'query.property_id'],
      [`merchant_id=${'m'.repeat(205)}`, 'query.merchant_id'],
      ['merchant_id=%20%20', 'query.merchant_id'],
    ]) {
      const res = await p.get(`/portal/instance/company/records?${query}`);
      expect([
        res.status,
        res.body.error?.code,
        res.body.error?.data.issues.map((i: { path: string }) => i.path),
      ]).toEqual([400, 'VALIDATION.INVALID', [path]]);
    }
    expect(await ids(p, `merchant_id=${'m'.repeat(204)}`)).toEqual([]);
  });

  it("when listed by domain_id, then the domain's records come newest first, paginated, and filters narrow them", async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const other = await c.domain(p.id);
    const [a, b, d] = await record(domain, 'ALLOWED', 'DENIED', 'PARTIAL');
    await record(other, 'ALLOWED');
    expect(await ids(p, `domain_id=${domain.id}`)).toEqual([d, b, a]);
    const page1 = await p.get(`/portal/instance/company/records?domain_id=${domain.id}&limit=2`);
    expect([page1.body.meta, page1.body.result.map((r: { receipt_id: string }) => r.receipt_id)]).toEqual([
      { current_page: 1, next_page: 2 },
      [d, b],
    ]);
    const page2 = await p.get(`/portal/instance/company/records?domain_id=${domain.id}&limit=2&page=2`);
    expect([page2.body.meta, page2.body.result.map((r: { receipt_id: string }) => r.receipt_id)]).toEqual([
      { current_page: 2, prev_page: 1 },
      [a],
    ]);
    expect(await ids(p, `domain_id=${domain.id}&receipt_status=DENIED`)).toEqual([b]);
    expect(await ids(p, `domain_id=${domain.id}&receipt_type=COOKIE_CONSENT&receipt_status=ALLOWED`)).toEqual([a]);
    expect(await ids(p, `domain_id=${domain.id}&receipt_type=VPPA`)).toEqual([]);
    expect(await ids(p, `domain_id=${domain.id}&property_id=${other.property_id}`)).toEqual([]);
    expect(await ids(p, `domain_id=${domain.id}&property_id=${domain.property_id}&limit=1`)).toEqual([d]);
    const bad = await p.get(`/portal/instance/company/records?domain_id=${domain.id}&receipt_status=MAYBE&limit=0`);
    expect(bad.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'query.limit',
      'query.receipt_status',
    ]);
  });

  it('when listed by merchant_id, then the records of every domain that names the merchant come, and only those', async () => {
    const p = c.partner();
    const first = await c.domain(p.id, { merchants: ['m-1'] });
    const second = await c.domain(p.id, { merchants: ['m-1', 'm-2'] });
    const unrelated = await c.domain(p.id, { merchants: ['m-3'] });
    const [x] = await record(first, 'ALLOWED');
    const [y] = await record(second, 'DENIED');
    await record(unrelated, 'ALLOWED');
    expect(await ids(p, 'merchant_id=m-1')).toEqual([y, x]);
    expect(await ids(p, 'merchant_id=m-2')).toEqual([y]);
    expect(await ids(p, `merchant_id=m-1&domain_id=${first.id}`)).toEqual([x]);
    expect(await ids(p, 'merchant_id=nobody')).toEqual([]);
  });

  it("when a partner has thousands of properties, then a merchant's domains are found through the merchant arrays' GIN indexes, not a scan of them", async () => {
    const partnerId = `many-${randomUUID()}`;
    await sql`
      INSERT INTO properties (property_id, partner_id, domain_id, hostname, status, merchant_ids, merchant_refs, company_id, company)
      SELECT gen_random_uuid()::text, ${partnerId}, gen_random_uuid()::text, 'shop' || g || '.example.com', 'ACTIVE',
             ARRAY['m-' || g], ARRAY['ref-' || g], 'c', '{}'::jsonb
      FROM generate_series(1, 5000) g`.execute(c.db);
    // As the owner: the service's role may not ANALYZE (PostgreSQL then skips it with a warning).
    const owner = new Client({ connectionString: c.databaseUrl });
    await owner.connect();
    await owner.query(`ANALYZE ${SCHEMA}.properties`).finally(() => owner.end());
    const { rows } = await sql<{
      'QUERY PLAN': string;
    }>`EXPLAIN SELECT d.id FROM ${scopeDomains({ partnerId, merchantId: 'm-42' })!}`.execute(c.db);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('properties_merchants');
    expect(plan).toContain('properties_merchant_refs');
  });

  it('when a record is read by id, then it is the listed record; under another domain or merchant, or an unknown id, 404', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id, { merchants: ['m-1'] });
    const other = await c.domain(p.id);
    const [id] = await record(domain, 'PARTIAL');
    const listed = (await p.get(`/portal/instance/company/records?domain_id=${domain.id}`)).body.result[0];
    expect((await p.get(`/portal/instance/company/records/${id}?domain_id=${domain.id}`)).body).toEqual({
      result: listed,
    });
    expect((await p.get(`/portal/instance/company/records/${id}?merchant_id=m-1`)).body).toEqual({ result: listed });
    for (const query of [`domain_id=${other.id}`, 'merchant_id=m-2']) {
      const res = await p.get(`/portal/instance/company/records/${id}?${query}`);
      expect([query, res.status, res.body]).toEqual([query, 404, envelope('RESOURCE.NOT_FOUND', 404)]);
    }
    expect((await p.get(`/portal/instance/company/records/RCPT_${'0'.repeat(32)}?domain_id=${domain.id}`)).status).toBe(
      404,
    );
  });

  it("when another partner asks for a partner's domain, merchant or record, then it lists nothing and gets 404", async () => {
    const owner = c.partner();
    const stranger = c.partner();
    const domain = await c.domain(owner.id, { merchants: ['shared-id'] });
    await c.domain(stranger.id, { merchants: ['shared-id'] });
    const [id] = await record(domain, 'ALLOWED');
    expect(await ids(stranger, `domain_id=${domain.id}`)).toEqual([]);
    expect(await ids(stranger, 'merchant_id=shared-id')).toEqual([]);
    expect(await ids(owner, 'merchant_id=shared-id')).toEqual([id]);
    const res = await stranger.get(`/portal/instance/company/records/${id}?domain_id=${domain.id}`);
    expect([res.status, res.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
  });

  it('when the caller lacks records:read, then 403 naming it', async () => {
    const res = await act(c.t.url, 'GET', '/portal/instance/company/records?domain_id=x', {
      token: c.tokenFor('partner_x', ['domains:read']),
    });
    expect([res.status, res.body.error.data]).toEqual([403, { required: 'records:read' }]);
  });
});
