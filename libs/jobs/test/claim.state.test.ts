import { sql } from '@platform/db';
import { claimWithLease } from '../src';
import { MINUTE, setupJobsDb, T0, type JobsDb } from './support';

let t: JobsDb;
beforeAll(async () => {
  t = await setupJobsDb('jobs_claim');
});
afterAll(() => t.close());

describe('claim with a lease in the due column', () => {
  it('when a claimed item is never finished (its runner crashed), then it is due again once its lease ends', async () => {
    await sql`INSERT INTO work.items (id, due_at) VALUES (10, ${new Date(T0)})`.execute(t.db);
    const claim = (now: Date) =>
      claimWithLease<{ id: number }>(t.db, {
        schema: 'work',
        table: 'items',
        dueColumn: 'due_at',
        now,
        leaseMs: MINUTE,
        limit: 10,
        where: sql`id = 10`,
      });
    expect((await claim(new Date(T0))).map((r) => r.id)).toEqual([10]);
    expect(await claim(new Date(T0 + 30_000))).toEqual([]);
    expect((await claim(new Date(T0 + 61_000))).map((r) => r.id)).toEqual([10]);
  });
});

describe('claim with a lease column of its own', () => {
  type Leased = { id: number; due_at: Date; lease_until: Date | null };
  const rows = async (ids: number[]) =>
    (
      await sql<Leased>`SELECT id, due_at, lease_until FROM work.leased WHERE id = ANY(${ids}) ORDER BY id`.execute(
        t.observer,
      )
    ).rows;
  const claim = (limit: number, lane: string, select?: ReturnType<typeof sql>) =>
    claimWithLease<Leased>(t.db, {
      table: 'leased',
      dueColumn: 'due_at',
      leaseColumn: 'lease_until',
      leaseMs: MINUTE,
      limit,
      where: sql`lane = ${lane}`,
      select,
    });

  it('when due rows are claimed by the database clock, then the earliest free ones come first, keep their due time, and are skipped until their lease ends', async () => {
    await sql`INSERT INTO work.leased (id, due_at, lane) VALUES
      (21, now() - interval '1 minute', 'b'), (22, now() - interval '3 minutes', 'b'), (23, now() - interval '2 minutes', 'b'), (24, now() + interval '1 hour', 'b')`.execute(
      t.db,
    );
    const before = await rows([21, 22, 23]);

    expect((await claim(2, 'b')).map((r) => r.id)).toEqual([22, 23]);
    const after = await rows([21, 22, 23]);
    expect(after.map((r) => r.due_at.getTime())).toEqual(before.map((r) => r.due_at.getTime()));
    for (const r of after.filter((r) => r.id !== 21))
      expect(r.lease_until!.getTime()).toBeGreaterThan(Date.now() + MINUTE - 10_000);
    expect((await claim(10, 'b')).map((r) => r.id)).toEqual([21]);
    expect(await claim(10, 'b')).toEqual([]);

    await sql`UPDATE work.leased SET lease_until = now() - interval '1 second' WHERE id = 22`.execute(t.db);
    expect((await claim(10, 'b')).map((r) => r.id)).toEqual([22]);
  });

  it('when several claims run at once, then no row is taken twice, and select shapes what comes back', async () => {
    await sql`INSERT INTO work.leased (id, due_at, lane) SELECT g, now() - interval '1 minute', 'c' FROM generate_series(100, 139) g`.execute(
      t.db,
    );
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => claim(10, 'c', sql`SELECT id, 'shaped' AS note FROM claimed`)),
    );
    const ids = claims.flat().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i));
    expect(claims.flat().every((r) => (r as unknown as { note: string }).note === 'shaped')).toBe(true);
  });
});
