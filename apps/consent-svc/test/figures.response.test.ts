import { randomUUID } from 'node:crypto';
import { consentFiguresSchema } from '@platform/contracts';
import { sql } from '@platform/db';
import { envelope } from '@platform/testing';
import { receipt, receiptsPath, startConsent, type ConsentTest } from './support';

const today = () => new Date().toISOString().slice(0, 10);
const statsOf = (res: { status: number; body: { result: unknown } }) => {
  expect(res.status).toBe(200);
  return consentFiguresSchema.parse(res.body.result);
};

describe('consent figures: counters per property and day, read by domain, merchant or portfolio', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  /** A visitor's choice sent from the property's page (categories granted, gpc). */
  const choose = async (domain: { property_id: string; hostname: string }, overrides: Record<string, unknown>) => {
    const res = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: receipt(overrides),
    });
    expect(res.status).toBe(201);
  };
  const view = (domain: { property_id: string; hostname: string }, origin = `https://${domain.hostname}`) =>
    c.widget('POST', `/widget/v1/properties/${domain.property_id}/notice-views`, { origin });
  const none = { functional: false, analytics: false, marketing: false };

  it('when visitors see the notice and choose, then today counts views, accept all, reject all, custom, GPC and grants per category, and the opt-in rates follow', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    for (let i = 0; i < 3; i++) expect((await view(domain)).status).toBe(202);
    await choose(domain, {});
    await choose(domain, { categories: none });
    await choose(domain, { categories: { functional: true, analytics: false, marketing: false } });
    // GPC wins over the marketing grant: recorded (and counted) as custom, marketing refused.
    await choose(domain, { gpc: true });
    // Not a cookie choice: only its GPC would count.
    await choose(domain, { receipt_type: 'AGE_CONFIRMATION', granted: true });
    // A replayed nonce is stored once and counted once.
    const replay = receipt();
    await choose(domain, replay);
    const again = await c.widget('POST', receiptsPath(domain.property_id), {
      origin: `https://${domain.hostname}`,
      body: replay,
    });
    expect(again.status).toBe(400);

    const stats = statsOf(
      await p.get(`/portal/instance/property/stats?domain_id=${domain.id}&from=${today()}&to=${today()}`),
    );
    const expected = {
      notice_views: 3,
      accept_all: 2,
      reject_all: 1,
      custom: 2,
      gpc_opt_outs: 1,
      granted: { functional: 4, analytics: 3, marketing: 2 },
    };
    expect(stats.per_day).toEqual([{ date: today(), ...expected }]);
    expect(stats.totals).toEqual(expected);
    expect(stats.opt_in_rate).toEqual({ functional: 4 / 5, analytics: 3 / 5, marketing: 2 / 5 });
    // The partner's own row was raised in the same statements: its portfolio is this one domain.
    const portfolio = statsOf(await p.get(`/portal/stats/consent?from=${today()}&to=${today()}`));
    expect(portfolio.totals).toEqual(expected);
  });

  it('when a range spans days with and without counts, then every day is listed oldest first, zeros included, and totals sum them; merchant and portfolio add their domains; another partner is never counted', async () => {
    const p = c.partner();
    const first = await c.domain(p.id, { merchants: ['m-fig'] });
    const second = await c.domain(p.id, { merchants: ['m-fig'] });
    const other = await c.domain(p.id);
    const stranger = c.partner();
    const foreign = await c.domain(stranger.id, { merchants: ['m-fig'] });
    // As receipts would have raised them: the property's row and its partner's.
    const counters = async (d: { property_id: string; id: string }, partnerId: string, day: string, n: number) => {
      await sql`INSERT INTO consent.consent_counters (property_id, day, partner_id, domain_id, notice_views, accept_all, granted_marketing)
          VALUES (${d.property_id}, ${day}::date, ${partnerId}, ${d.id}, ${n * 2}, ${n}, ${n})`.execute(c.db);
      await sql`INSERT INTO consent.consent_partner_counters AS c (partner_id, day, notice_views, accept_all, granted_marketing)
          VALUES (${partnerId}, ${day}::date, ${n * 2}, ${n}, ${n})
          ON CONFLICT (partner_id, day) DO UPDATE SET accept_all = c.accept_all + excluded.accept_all`.execute(c.db);
    };
    await counters(first, p.id, '2026-01-01', 1);
    await counters(first, p.id, '2026-01-03', 2);
    await counters(second, p.id, '2026-01-03', 4);
    await counters(other, p.id, '2026-01-02', 8);
    await counters(foreign, stranger.id, '2026-01-03', 16);

    const byDomain = statsOf(
      await p.get(`/portal/instance/property/stats?domain_id=${first.id}&from=2025-12-31&to=2026-01-03`),
    );
    expect(byDomain.per_day.map((d) => [d.date, d.accept_all])).toEqual([
      ['2025-12-31', 0],
      ['2026-01-01', 1],
      ['2026-01-02', 0],
      ['2026-01-03', 2],
    ]);
    expect(byDomain.totals).toMatchObject({ notice_views: 6, accept_all: 3, granted: { marketing: 3 } });
    expect(byDomain.opt_in_rate).toEqual({ functional: 0, analytics: 0, marketing: 1 });

    const byMerchant = statsOf(
      await p.get('/portal/instance/property/stats?merchant_id=m-fig&from=2026-01-01&to=2026-01-03'),
    );
    expect(byMerchant.per_day.map((d) => d.accept_all)).toEqual([1, 0, 6]);
    const portfolio = statsOf(await p.get('/portal/stats/consent?from=2026-01-01&to=2026-01-03'));
    expect(portfolio.per_day.map((d) => d.accept_all)).toEqual([1, 8, 6]);

    const quiet = statsOf(
      await p.get(`/portal/instance/property/stats?domain_id=${first.id}&from=2025-01-01&to=2025-01-02`),
    );
    expect(quiet.totals.accept_all).toBe(0);
    expect(quiet.opt_in_rate).toEqual({ functional: null, analytics: null, marketing: null });
  });

  it("when the domain or merchant is another partner's or unknown, then 404", async () => {
    const p = c.partner();
    const foreign = await c.domain(c.partner().id, { merchants: ['m-x'] });
    for (const q of [`domain_id=${foreign.id}`, 'merchant_id=m-x', `domain_id=${randomUUID()}`]) {
      const res = await p.get(`/portal/instance/property/stats?${q}&from=2026-01-01&to=2026-01-02`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    }
  });

  it.each([
    ['from=2026-01-01&to=2026-01-02', 'query.merchant_id'],
    ['domain_id=d&to=2026-01-02', 'query.from'],
    ['domain_id=d&from=2026-1-1&to=2026-01-02', 'query.from'],
    ['domain_id=d&from=2026-02-30&to=2026-03-02', 'query.from'],
    ['domain_id=d&from=2026-01-03&to=2026-01-02', 'query.to'],
    ['domain_id=d&from=2025-01-01&to=2026-01-02', 'query.to'],
  ])('when the query is %s, then 400 VALIDATION.INVALID naming %s', async (query, path) => {
    const res = await c.partner().get(`/portal/instance/property/stats?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION.INVALID');
    expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('when a year of 366 days is asked (a leap year), then it is answered; 367 is 400', async () => {
    const p = c.partner();
    expect(statsOf(await p.get('/portal/stats/consent?from=2028-01-01&to=2028-12-31')).per_day).toHaveLength(366);
    expect((await p.get('/portal/stats/consent?from=2027-12-31&to=2028-12-31')).status).toBe(400);
  });

  it('when the notice-view beacon comes from another site or for an unknown property, then 403 or 404 and nothing is counted', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    expect((await view(domain, 'https://evil.example')).status).toBe(403);
    expect((await view({ ...domain, property_id: randomUUID() })).status).toBe(404);
    const stats = statsOf(
      await p.get(`/portal/instance/property/stats?domain_id=${domain.id}&from=${today()}&to=${today()}`),
    );
    expect(stats.totals.notice_views).toBe(0);
  });
});
