import { DOMAIN_STATUSES, domainStatsSchema } from '@platform/contracts';
import { sql } from '@platform/db';
import { weekStartUtc } from '../src/stats/domain-stats.service';
import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

describe('GET /portal/stats/domains (the Dashboard)', () => {
  let h: Harness;
  let p: TestPartner;
  /** The Monday (UTC) `weeksAgo` weeks before this week's, at noon on its Wednesday: well inside that week. */
  const thisWeek = weekStartUtc(new Date());
  const midWeek = (weeksAgo: number) => new Date(thisWeek.getTime() - weeksAgo * 7 * DAY_MS + 2.5 * DAY_MS);
  const weekOf = (weeksAgo: number) => isoDay(new Date(thisWeek.getTime() - weeksAgo * 7 * DAY_MS));

  const create = async (who: TestPartner) => {
    const res = await h.call(who, 'POST', '/portal/domains', createBody(uniqueHost('stats')));
    expect(res.status).toBe(200);
    return res.body.result.id as string;
  };
  /** Arranges a domain's history as time would have left it. */
  const arrange = (id: string, times: { status: string; created: Date; invited?: Date; activated?: Date }) =>
    sql`UPDATE domains.domains SET status = ${times.status}, is_active = ${times.status !== 'INACTIVE'},
          created_at = ${times.created}, invited_at = ${times.invited ?? null}, activated_at = ${times.activated ?? null}
        WHERE id = ${id}`.execute(h.deps.db);
  const stats = (who: TestPartner, query = '') => h.call(who, 'GET', `/portal/stats/domains${query}`);

  beforeAll(async () => {
    h = await startDomainsSvc();
    p = h.partner();
    // 3 weeks ago: two created, one of them invited 2 weeks ago and activated last week.
    await arrange(await create(p), {
      status: 'ACTIVE',
      created: midWeek(3),
      invited: midWeek(2),
      activated: midWeek(1),
    });
    await arrange(await create(p), { status: 'NEW', created: midWeek(3) });
    // Last week: one created and activated without an invitation (the widget went live first), then deactivated.
    await arrange(await create(p), { status: 'INACTIVE', created: midWeek(1), activated: midWeek(1) });
    // Long ago (outside a 12-week window): created, invited and still INVITED.
    await arrange(await create(p), { status: 'INVITED', created: midWeek(20), invited: midWeek(20) });
    // Another partner's domains in every week must never be counted.
    const other = h.partner();
    for (const weeksAgo of [0, 1, 2, 3]) {
      await arrange(await create(other), {
        status: 'ACTIVE',
        created: midWeek(weeksAgo),
        invited: midWeek(weeksAgo),
        activated: midWeek(weeksAgo),
      });
    }
  });
  afterAll(() => h?.close());

  it('when asked with no query, then every status is counted (0 when none) and 12 zero-filled weeks end with this one', async () => {
    const res = await stats(p);
    expect(res.status).toBe(200);
    const result = domainStatsSchema.parse(res.body.result);
    expect(result.by_status).toEqual({ NEW: 1, SCANNED: 0, INVITED: 1, ACTIVE: 1, INACTIVE: 1 });
    expect(Object.keys(result.by_status).sort()).toEqual([...DOMAIN_STATUSES].sort());
    expect(result.funnel).toHaveLength(12);
    expect(result.funnel.map((w) => w.week_start)).toEqual(Array.from({ length: 12 }, (_, k) => weekOf(11 - k)));
    expect(result.funnel.slice(-4)).toEqual([
      { week_start: weekOf(3), created: 2, invited: 0, activated: 0 },
      { week_start: weekOf(2), created: 0, invited: 1, activated: 0 },
      { week_start: weekOf(1), created: 1, invited: 0, activated: 2 },
      { week_start: weekOf(0), created: 0, invited: 0, activated: 0 },
    ]);
    for (const w of result.funnel.slice(0, 8))
      expect(w).toEqual({ week_start: w.week_start, created: 0, invited: 0, activated: 0 });
  });

  it('when weeks=52, then the long-ago domain is in its week; weeks=1 is this week alone; every week starts on a Monday', async () => {
    const year = domainStatsSchema.parse((await stats(p, '?weeks=52')).body.result);
    expect(year.funnel).toHaveLength(52);
    expect(year.funnel.find((w) => w.week_start === weekOf(20))).toEqual({
      week_start: weekOf(20),
      created: 1,
      invited: 1,
      activated: 0,
    });
    expect(year.funnel.reduce((sum, w) => sum + w.created, 0)).toBe(4);
    for (const w of year.funnel) expect(new Date(`${w.week_start}T00:00:00Z`).getUTCDay()).toBe(1);
    const one = domainStatsSchema.parse((await stats(p, '?weeks=1')).body.result);
    expect(one.funnel).toEqual([{ week_start: weekOf(0), created: 0, invited: 0, activated: 0 }]);
  });

  it('when a domain is created and invited through the API now, then this week counts it once, however often it is invited', async () => {
    const q = h.partner();
    const id = await create(q);
    expect((await h.call(q, 'POST', `/portal/domains/${id}/invite`, {})).status).toBe(200);
    const first = await h.deps.db
      .selectFrom('domains')
      .select('invited_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect((await h.call(q, 'POST', `/portal/domains/${id}/invite`, {})).status).toBe(200);
    const again = await h.deps.db
      .selectFrom('domains')
      .select('invited_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(again.invited_at).toEqual(first.invited_at);
    const result = domainStatsSchema.parse((await stats(q, '?weeks=2')).body.result);
    expect(result.by_status).toEqual({ NEW: 0, SCANNED: 0, INVITED: 1, ACTIVE: 0, INACTIVE: 0 });
    expect(result.funnel).toEqual([
      { week_start: weekOf(1), created: 0, invited: 0, activated: 0 },
      { week_start: weekOf(0), created: 1, invited: 1, activated: 0 },
    ]);
  });

  it('when a partner has no domain, then every count is 0', async () => {
    const result = domainStatsSchema.parse((await stats(h.partner(), '?weeks=3')).body.result);
    expect(result.by_status).toEqual({ NEW: 0, SCANNED: 0, INVITED: 0, ACTIVE: 0, INACTIVE: 0 });
    expect(result.funnel.map((w) => w.created + w.invited + w.activated)).toEqual([0, 0, 0]);
  });

  it.each(['?weeks=0', '?weeks=53', '?weeks=abc', '?weeks=1.5', '?weeks=', '?weeks=-1'])(
    'when the query is %s, then 400 VALIDATION.INVALID',
    async (query) => {
      const res = await stats(p, query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
    },
  );

  it('when the key lacks domains:read, then 403', async () => {
    const res = await stats(h.partner([], ['webhooks:read']));
    expect(res.status).toBe(403);
  });
});
