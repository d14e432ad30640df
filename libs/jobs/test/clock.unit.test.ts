import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileClock, onClock, type Clock, type JobContext, type JobDefinition } from '../src';
import { logger, movableClock, T0 } from './support';

describe('clocks a test sets from outside: a file clock, and one job on a clock of its own', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'file-clock-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('when the file holds a time, then now() is that time, and a new time written to it is the next now()', async () => {
    const file = path.join(dir, 'now');
    await writeFile(file, new Date(T0).toISOString());
    const clock = fileClock(file);
    expect(clock.now().getTime()).toBe(T0);
    await writeFile(file, `${new Date(T0 + 86_400_000).toISOString()}\n`);
    expect(clock.now().getTime()).toBe(T0 + 86_400_000);
  });

  it('when the file holds no time, then now() throws naming the file', async () => {
    const file = path.join(dir, 'garbage');
    await writeFile(file, 'soon');
    expect(() => fileClock(file).now()).toThrow(`${file} does not hold a time`);
  });

  it("when a job is put on a clock, then its runs see that clock's now and the clock, not the runner's; without one it is the job itself", async () => {
    const seen: { now: Date; clock: Clock }[] = [];
    const job: JobDefinition<unknown> = {
      name: 'sees',
      intervalMs: 1_000,
      run: async ({ now, clock }) => void seen.push({ now, clock }),
    };
    const own = movableClock(T0 + 5_000).clock;
    const runner = movableClock(T0).clock;
    const ctx = { db: undefined, now: runner.now(), clock: runner, signal: new AbortController().signal, logger };
    await onClock(job, own).run(ctx as unknown as JobContext<unknown>);
    expect(seen).toEqual([{ now: new Date(T0 + 5_000), clock: own }]);
    expect(onClock(job, undefined)).toBe(job);
  });
});
