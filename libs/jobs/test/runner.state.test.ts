import { Writable } from 'node:stream';
import { sql } from '@platform/db';
import { createLogger } from '@platform/observability';
import { waitFor } from '@platform/testing';
import { claimWithLease, JobRunner, type JobDefinition } from '../src';
import { gate, logger, MINUTE, movableClock, outcomes, setupJobsDb, T0, type JobsDb } from './support';

let t: JobsDb;
beforeAll(async () => {
  t = await setupJobsDb('jobs_runner');
});
afterAll(() => t.close());

describe('job runner: due rows', () => {
  it('when two runners tick at the same moments of a moved clock, then each due item is processed exactly once, when it is due', async () => {
    await sql`INSERT INTO work.items (id, due_at) VALUES (1, ${new Date(T0 + MINUTE)}), (2, ${new Date(T0 + 2 * MINUTE)}), (3, ${new Date(T0 + 2 * MINUTE)})`.execute(
      t.db,
    );
    const { clock, move } = movableClock();
    const runner = (name: string) =>
      new JobRunner({ db: t.db, logger, clock }).every({
        name: 'process-items',
        intervalMs: 1_000,
        run: async ({ db, now }) => {
          const claimed = await claimWithLease<{ id: number }>(db, {
            schema: 'work',
            table: 'items',
            dueColumn: 'due_at',
            now,
            leaseMs: 10 * MINUTE,
            limit: 10,
            where: sql`cardinality(done_by) = 0`,
          });
          for (const item of claimed)
            await sql`UPDATE work.items SET done_by = done_by || ${name}::text WHERE id = ${item.id}`.execute(db);
        },
      });
    const a = runner('a');
    const b = runner('b');
    const doneBy = async () =>
      (
        await sql<{
          id: number;
          done_by: string[];
        }>`SELECT id, done_by FROM work.items WHERE id <= 3 ORDER BY id`.execute(t.db)
      ).rows;

    await Promise.all([a.tick(), b.tick()]);
    expect((await doneBy()).map((r) => r.done_by.length)).toEqual([0, 0, 0]);
    move(90_000);
    await Promise.all([a.tick(), b.tick()]);
    expect((await doneBy()).map((r) => r.done_by.length)).toEqual([1, 0, 0]);
    move(60_000);
    await Promise.all([a.tick(), b.tick()]);
    move(1_000);
    await Promise.all([a.tick(), b.tick()]);
    expect((await doneBy()).map((r) => r.done_by.length)).toEqual([1, 1, 1]);
  });
});

describe('job runner: singletons', () => {
  it('when a singleton job is due in two runners while one runs it, then the other skips until it ends, and never runs it at the same time', async () => {
    const { clock, move } = movableClock();
    const held = gate();
    let inside = 0;
    let maxInside = 0;
    const runs: string[] = [];
    const seen = outcomes();
    const runner = (name: string) =>
      new JobRunner({ db: t.db, logger, clock, onRun: (job, outcome) => seen.onRun(`${name}:${job}`, outcome) }).every({
        name: 'housekeeping',
        intervalMs: 1_000,
        singleton: true,
        run: async () => {
          runs.push(name);
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          if (runs.length === 1) await held.opened;
          inside -= 1;
        },
      });
    const a = runner('a');
    const b = runner('b');

    const first = a.tick();
    await waitFor(() => inside === 1, { what: 'a inside its run' });
    await b.tick();
    move(1_000);
    await b.tick();
    held.open();
    await first;
    move(1_000);
    await b.tick();

    expect(runs).toEqual(['a', 'b']);
    expect(maxInside).toBe(1);
    expect(seen.of('a:housekeeping')).toEqual(['ok']);
    expect(seen.of('b:housekeeping')).toEqual(['skipped', 'skipped', 'ok']);
  });

  it('when two services sharing the database run a singleton job of the same name, then neither blocks the other', async () => {
    const both = gate();
    let inside = 0;
    const job: JobDefinition<unknown> = {
      name: 'prune-chassis-tables',
      intervalMs: 1_000,
      deadlineMs: 2_000,
      singleton: true,
      // Each run waits for the other to be inside too (or gives up at its deadline).
      run: async ({ signal }) => {
        inside += 1;
        if (inside === 2) both.open();
        await Promise.race([both.opened, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
      },
    };
    const seen = outcomes();
    const work = new JobRunner({ db: t.db, logger, onRun: seen.onRun }).every(job);
    const other = new JobRunner({ db: t.other, logger, onRun: seen.onRun }).every(job);
    await Promise.all([work.tick(), other.tick()]);
    expect(seen.of('prune-chassis-tables')).toEqual(['ok', 'ok']);
  });

  it('when a singleton job writes, then each statement commits on its own while the lock is held', async () => {
    let seenByOthers: number[] = [];
    const runner = new JobRunner({ db: t.db, logger }).every({
      name: 'writer',
      intervalMs: 1_000,
      singleton: true,
      run: async ({ db }) => {
        await sql`INSERT INTO work.items (id, due_at) VALUES (20, now())`.execute(db);
        const { rows } = await sql<{ id: number }>`SELECT id FROM work.items WHERE id = 20`.execute(t.observer);
        seenByOthers = rows.map((r) => r.id);
      },
    });
    await runner.tick();
    expect(seenByOthers).toEqual([20]);
  });
});

describe('job runner: deadlines, failures, schedule', () => {
  it('when a run passes its deadline, then it is abandoned and logged, its signal aborted, and the next run still happens', async () => {
    const lines: { msg: string; job?: string; deadlineMs?: number }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as (typeof lines)[number]);
        done();
      },
    });
    const seen = outcomes();
    const { clock, move } = movableClock();
    let calls = 0;
    let abortedWith: unknown;
    const runner = new JobRunner({
      db: t.db,
      logger: createLogger('jobs-test', 'warn', sink),
      clock,
      onRun: seen.onRun,
    }).every({
      name: 'slow',
      intervalMs: 1_000,
      deadlineMs: 50,
      run: async ({ signal }) => {
        calls += 1;
        if (calls === 1) await new Promise((resolve) => signal.addEventListener('abort', resolve));
        abortedWith ??= signal.reason;
      },
    });
    await runner.tick();
    move(1_000);
    await runner.tick();
    expect(seen.of('slow')).toEqual(['deadline', 'ok']);
    expect(calls).toBe(2);
    expect(String(abortedWith)).toContain('deadline');
    await waitFor(() => lines.some((l) => l.msg === 'abandoned job run ended'), { what: 'the abandoned run ending' });
    expect(lines.find((l) => l.msg === 'job run abandoned at its deadline')).toMatchObject({
      job: 'slow',
      deadlineMs: 50,
    });
  });

  it('when an abandoned singleton run is still going, then it keeps its lock, and the next run comes once it has ended', async () => {
    const { clock, move } = movableClock();
    const stuck = gate();
    let inside = 0;
    let maxInside = 0;
    const seen = outcomes();
    const job = (name: string): JobDefinition<unknown> => ({
      name: 'stubborn',
      intervalMs: 1_000,
      deadlineMs: 50,
      singleton: true,
      run: async () => {
        inside += 1;
        maxInside = Math.max(maxInside, inside);
        // The first run ignores its aborted signal until the test lets it go.
        if (name === 'a') await stuck.opened;
        inside -= 1;
      },
    });
    const a = new JobRunner({ db: t.db, logger, clock, onRun: (j, o) => seen.onRun(`a:${j}`, o) }).every(job('a'));
    const b = new JobRunner({ db: t.db, logger, clock, onRun: (j, o) => seen.onRun(`b:${j}`, o) }).every(job('b'));

    await a.tick();
    await b.tick();
    stuck.open();
    await waitFor(() => inside === 0, { what: 'the abandoned run to end' });
    await waitFor(
      async () => {
        move(1_000);
        await b.tick();
        return seen.of('b:stubborn').includes('ok');
      },
      { what: 'b to take the released lock' },
    );
    expect(seen.of('a:stubborn')).toEqual(['deadline']);
    expect(seen.of('b:stubborn')[0]).toBe('skipped');
    expect(maxInside).toBe(1);
  });

  it('when a run fails, then it is reported and the next run still happens', async () => {
    const { clock, move } = movableClock();
    const seen = outcomes();
    let calls = 0;
    const runner = new JobRunner({ db: t.db, logger, clock, onRun: seen.onRun }).every({
      name: 'flaky',
      intervalMs: 1_000,
      run: async ({ db }) => {
        calls += 1;
        if (calls === 1) await sql`SELECT * FROM work.no_such_table`.execute(db);
      },
    });
    await runner.tick();
    move(1_000);
    await runner.tick();
    expect(seen.of('flaky')).toEqual(['failed', 'ok']);
  });

  it('when a job has jitter, then each run is due its interval plus the jitter drawn, and not before', async () => {
    const { clock, set } = movableClock();
    const ranAt: number[] = [];
    const runner = new JobRunner({ db: t.db, logger, clock, random: () => 0.5 }).every({
      name: 'jittered',
      intervalMs: 1_000,
      jitterMs: 400,
      run: async ({ now }) => void ranAt.push(now.getTime() - T0),
    });
    for (const at of [0, 199, 200, 1_399, 1_400, 2_599, 2_600]) {
      set(T0 + at);
      await runner.tick();
    }
    expect(ranAt).toEqual([200, 1_400, 2_600]);
  });

  it('when the same job name is registered twice, then the runner refuses it', () => {
    const job: JobDefinition<unknown> = { name: 'twice', intervalMs: 1_000, run: async () => undefined };
    expect(() => new JobRunner({ db: t.db, logger }).every(job).every(job)).toThrow('registered twice');
  });
});

describe('job runner: start and stop', () => {
  it('when one job runs long, then the others keep their schedule', async () => {
    const slow = gate();
    let fastRuns = 0;
    let slowRuns = 0;
    const runner = new JobRunner({ db: t.db, logger, tickMs: 5 })
      .every({
        name: 'slow',
        intervalMs: 5,
        run: async () => {
          slowRuns += 1;
          await slow.opened;
        },
      })
      .every({ name: 'fast', intervalMs: 5, run: async () => void (fastRuns += 1) });
    runner.start();
    try {
      await waitFor(() => fastRuns >= 5, { what: 'five fast runs while the slow one runs' });
      expect(slowRuns).toBe(1);
    } finally {
      slow.open();
      await runner.stop();
    }
  });

  it('when the runner stops, then it aborts the runs in flight and waits for them, and starts nothing more', async () => {
    let finished = false;
    let started = 0;
    const runner = new JobRunner({ db: t.db, logger, tickMs: 5 }).every({
      name: 'winds-down',
      intervalMs: 5,
      run: async ({ signal }) => {
        started += 1;
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        await sql`SELECT 1`.execute(t.db);
        finished = true;
      },
    });
    runner.start();
    await waitFor(() => started === 1, { what: 'the run to start' });
    await runner.stop();
    expect(finished).toBe(true);
    await runner.tick();
    expect(started).toBe(1);
  });
});
