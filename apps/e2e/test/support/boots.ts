import { appendFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Every start of a whole platform in a run is one line in the file E2E_BOOT_LOG names (set by
 * globalSetup, inherited by every test file); globalTeardown prints "platform boots: N" for CI's log.
 * Boots are what makes the system tests slow: each place that starts a platform calls countBoot.
 */
const LOG = 'E2E_BOOT_LOG';

/** Counts one platform start, named after what started it (the test file, or "shared"). */
export async function countBoot(what: string): Promise<void> {
  const file = process.env[LOG];
  if (file) await appendFile(file, `${what}\n`);
}

/** The boot log of this run: globalSetup names the file before anything boots. */
export function bootLogAt(file: string): void {
  process.env[LOG] = file;
}

/** Ends the run's boot log: "platform boots: N", then how many each starter made. */
export async function endBootLog(): Promise<string> {
  const file = process.env[LOG];
  const lines = file ? (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean) : [];
  if (file) await rm(path.dirname(file), { recursive: true, force: true });
  const per = new Map<string, number>();
  for (const line of lines) per.set(line, (per.get(line) ?? 0) + 1);
  return [`platform boots: ${lines.length}`, ...[...per].map(([what, n]) => `  ${n} ${what}`)].join('\n');
}

/** The test file running now, to name a boot after. */
export const currentTestFile = (): string => expect.getState().testPath?.split('/').pop() ?? 'unknown';
