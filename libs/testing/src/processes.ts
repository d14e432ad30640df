import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessSample {
  pid: number;
  ppid: number;
  /** User and system CPU time so far, in clock ticks (1/100 s on Linux). */
  ticks: number;
  command: string;
}

function sampleProcesses(): ProcessSample[] {
  const samples: ProcessSample[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name "(...)": state, ppid, ..., utime (12th), stime (13th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      samples.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 120),
      });
    } catch {
      // The process ended while it was read.
    }
  }
  return samples;
}

/** Every process this test process started, and theirs (Chromium's zygote and renderers). Linux only. */
export function descendantsOfThisProcess(): ProcessSample[] {
  const all = sampleProcesses();
  const ours = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => p.pid !== process.pid && ours.has(p.pid));
}

/**
 * The processes this test process started (and theirs, e.g. Chromium's renderers) that used more
 * than `share` of a core during `windowMs`: a renderer stuck in a script shows up here. Linux only.
 */
export async function busyChildProcesses({ windowMs = 1_000, share = 0.3 } = {}): Promise<
  Array<{ pid: number; share: number; command: string }>
> {
  const before = new Map(descendantsOfThisProcess().map((p) => [p.pid, p.ticks]));
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  return descendantsOfThisProcess()
    .map((p) => ({ pid: p.pid, share: (p.ticks - (before.get(p.pid) ?? 0)) / (windowMs / 10), command: p.command }))
    .filter((p) => p.share > share);
}
