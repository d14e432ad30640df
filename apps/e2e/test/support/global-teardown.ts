import { endBootLog } from './boots';

/** Ends the platform globalSetup started (Jest runs both in its main process), and says how many platforms the run started. */
export default async function globalTeardown(): Promise<void> {
  try {
    await (globalThis as { endSharedPlatform?: () => Promise<void> }).endSharedPlatform?.();
  } finally {
    process.stdout.write(`\n${await endBootLog()}\n`);
  }
}
