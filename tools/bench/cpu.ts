import { readFileSync } from 'node:fs';
import type { Platform } from '@platform/launcher';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux x86_64). */
const TICKS_PER_SECOND = 100;

/** A process's CPU time so far (user + system), in milliseconds, from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3: utime is 14th, stime 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * Every platform process's CPU time spent between start and the report, per unit of work (e.g.
 * per create): what one operation costs each service, wherever it runs (request, consumer, relay).
 */
export async function cpuPerOperation(
  platform: Platform,
  work: { count: () => Promise<number>; settled: () => Promise<void> },
) {
  const pids = [...platform.processes].flatMap(([name, p]) => (p.child.pid ? [[name, p.child.pid] as const] : []));
  const counted = await work.count();
  const before = new Map(pids.map(([name, pid]) => [name, cpuMs(pid)]));
  return async () => {
    await work.settled();
    const n = (await work.count()) - counted;
    const parts = pids.map(
      ([name, pid]) => `${name} ${((cpuMs(pid) - before.get(name)!) / Math.max(1, n)).toFixed(2)}`,
    );
    return `CPU ms per operation (${n}, until the consumers caught up): ${parts.join(', ')}`;
  };
}
