import { randomUUID } from 'node:crypto';
import { receiptStatsSchema } from '@platform/contracts';
import { sql } from '@platform/db';
import { act, envelope } from '@platform/testing';
import { startConsent, type ConsentTest } from './support';

const DAY_MS = 86_400_000;

describe('GET /portal/stats/receipts (the Dashboard)', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  const todayUtc = () => {
    const now = new Date();
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  };
  const dayOf = (daysAgo: number) => new Date(todayUtc() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  /** `n` receipts of one status, as the widget would have stored them, at `at`. */
  const receipts = (partnerId: string, status: string, n: number, at: Date) =>
    sql`
      INSERT INTO consent.records (id, partner_id, property_id, domain_id, receipt_type, receipt_status, body, signature, nonce, created_at)
      SELECT 'RCPT_' || gen_random_uuid(), ${partnerId}, ${randomUUID()}, ${randomUUID()}, 'CONSENT', ${status}, '{}', 'sig',
             gen_random_uuid()::text, ${at}
      FROM generate_series(1, ${n})`.execute(c.db);
  /** `hours` after midnight UTC of the day `daysAgo` days before today. */
  const at = (daysAgo: number, hours: number) => new Date(todayUtc() - daysAgo * DAY_MS + hours * 3_600_000);

  it('when a partner has receipts on some days, then each UTC day counts its own by status, the others are 0, and another partner is never counted', async () => {
    const p = c.partner();
    await receipts(p.id, 'ALLOWED', 3, at(0, 0.01));
    await receipts(p.id, 'DENIED', 1, at(0, 10));
    await receipts(p.id, 'PARTIAL', 2, at(1, 23.99));
    await receipts(p.id, 'ALLOWED', 1, at(29, 12));
    // One day too old for the default 30 days; another partner's receipts today.
    await receipts(p.id, 'ALLOWED', 5, at(30, 12));
    await receipts(`partner_${randomUUID()}`, 'ALLOWED', 7, at(0, 1));

    const res = await p.get('/portal/stats/receipts');
    expect(res.status).toBe(200);
    const { per_day } = receiptStatsSchema.parse(res.body.result);
    expect(per_day.map((d) => d.date)).toEqual(Array.from({ length: 30 }, (_, k) => dayOf(29 - k)));
    expect(per_day[29]).toEqual({ date: dayOf(0), allowed: 3, partial: 0, denied: 1, total: 4 });
    expect(per_day[28]).toEqual({ date: dayOf(1), allowed: 0, partial: 2, denied: 0, total: 2 });
    expect(per_day[0]).toEqual({ date: dayOf(29), allowed: 1, partial: 0, denied: 0, total: 1 });
    expect(per_day.slice(1, 28).every((d) => d.total === 0 && d.allowed + d.partial + d.denied === 0)).toBe(true);

    const ninety = receiptStatsSchema.parse((await p.get('/portal/stats/receipts?days=90')).body.result).per_day;
    expect(ninety).toHaveLength(90);
    expect(ninety.find((d) => d.date === dayOf(30))).toEqual({
      date: dayOf(30),
      allowed: 5,
      partial: 0,
      denied: 0,
      total: 5,
    });
    expect((await p.get('/portal/stats/receipts?days=1')).body.result).toEqual({
      per_day: [{ date: dayOf(0), allowed: 3, partial: 0, denied: 1, total: 4 }],
    });
  });

  it('when a partner has no receipt, then every day is 0', async () => {
    const res = await c.partner().get('/portal/stats/receipts?days=7');
    expect(res.status).toBe(200);
    expect(receiptStatsSchema.parse(res.body.result).per_day.map((d) => d.total)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it.each(['?days=0', '?days=91', '?days=x', '?days=2.5', '?days='])(
    'when the query is %s, then 400 VALIDATION.INVALID',
    async (query) => {
      const res = await c.partner().get(`/portal/stats/receipts${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
    },
  );

  it('when the key lacks records:read, then 403', async () => {
    const token = c.tokenFor(`partner_${randomUUID()}`, ['domains:read']);
    const res = await act(c.t.url, 'GET', '/portal/stats/receipts', { token });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTH.FORBIDDEN');
  });

  it("when 60,000 records of 60 partners are stored, then one partner's count reads records_partner_created, never the whole table", async () => {
    await sql`
      INSERT INTO consent.records (id, partner_id, property_id, domain_id, receipt_type, receipt_status, body, signature, nonce, created_at)
      SELECT 'RCPT_' || gen_random_uuid(), 'plan_' || (g % 60), 'prop', 'dom', 'CONSENT', 'ALLOWED', '{}', 'sig', gen_random_uuid()::text,
             now() - (g % 120) * interval '1 day'
      FROM generate_series(1, 60000) g`.execute(c.db);
    await sql`VACUUM ANALYZE consent.records`.execute(c.db);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT ((created_at AT TIME ZONE 'UTC')::date)::text, count(*) FILTER (WHERE receipt_status = 'ALLOWED')
      FROM consent.records WHERE partner_id = 'plan_7' AND created_at >= now() - interval '30 days'
      GROUP BY (created_at AT TIME ZONE 'UTC')::date`.execute(c.db);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index (Only )?Scan (using|on) records_partner_created/);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});
