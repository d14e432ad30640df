import type { Logger } from '@platform/observability';

/**
 * What a boot has started so far, in order. A failed boot and stop() both undo it from the last
 * thing started to the first, so a boot that fails at any step leaves nothing running.
 */
export class StartedThings {
  private readonly stops: [string, () => Promise<unknown>][] = [];

  constructor(private readonly logger: Logger) {}

  push(name: string, stop: () => Promise<unknown>): void {
    this.stops.push([name, stop]);
  }

  /** Stops everything started, last first; a failing stop is logged and the others still run. */
  async unwind(): Promise<void> {
    for (let next = this.stops.pop(); next; next = this.stops.pop()) {
      const [name, stop] = next;
      await stop().catch((err: unknown) => this.logger.error({ err }, `stopping ${name} failed`));
    }
  }
}
