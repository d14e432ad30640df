import { readFileSync } from 'node:fs';
import type { Clock, JobDefinition } from './runner';

/**
 * A clock another process sets: the time written in `file` (ISO 8601), read at each now(). For
 * system tests that move a running service's time instead of waiting for it to pass.
 */
export function fileClock(file: string): Clock {
  return {
    now: () => {
      const at = new Date(readFileSync(file, 'utf8').trim());
      if (Number.isNaN(at.getTime())) throw new Error(`${file} does not hold a time`);
      return at;
    },
  };
}

/** The job with its `now` (and clock) taken from `clock` instead of its runner's; the job as it is without one. */
export function onClock<DB>(job: JobDefinition<DB>, clock: Clock | undefined): JobDefinition<DB> {
  if (!clock) return job;
  return { ...job, run: (ctx) => job.run({ ...ctx, now: clock.now(), clock }) };
}
