import type { Kysely } from '@platform/db';
import type { Logger } from '@platform/observability';
import type { GatewayDb } from '../db/tables';

/**
 * Records when each key was last used without touching the request path: seen() only notes the
 * id; every flushMs one UPDATE writes the time for all keys seen since. A crash loses at most that
 * interval's notes.
 */
export class LastUsedRecorder {
  private seenIds = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<GatewayDb>,
    flushMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  seen(keyId: string) {
    this.seenIds.add(keyId);
  }

  flush(): Promise<void> {
    if (this.seenIds.size === 0) return this.flushing;
    const ids = [...this.seenIds];
    this.seenIds = new Set();
    const at = new Date(this.now());
    this.flushing = this.flushing
      .then(() => this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', 'in', ids).execute())
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err }, 'could not record when keys were last used'),
      );
    return this.flushing;
  }

  async stop() {
    clearInterval(this.timer);
    await this.flush();
  }
}
