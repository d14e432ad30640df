/** Ends the platform globalSetup started (Jest runs both in its main process). */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { endSharedPlatform?: () => Promise<void> }).endSharedPlatform?.();
}
