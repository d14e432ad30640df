/** An error's message (or the value itself), short enough for a log line or a header. */
export function errorText(err: unknown): string {
  return String(err instanceof Error ? err.message : err).slice(0, 1_000);
}
