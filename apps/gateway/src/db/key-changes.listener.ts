import { Client } from 'pg';
import type { Logger } from '@platform/observability';
import { KEYS_CHANNEL } from './tables';

export interface KeyChangeSink {
  setCaching(on: boolean): void;
  invalidate(prefix: string): void;
}

/**
 * LISTENs on gateway_keys so a revocation reaches every gateway at once. While the
 * subscription is down the sink stops caching (each request reads the database), and
 * the listener reconnects with growing delays.
 */
export class KeyChangeListener {
  private client: Client | undefined;
  private stopped = false;
  private retryMs = 250;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly sink: KeyChangeSink,
    private readonly logger: Logger,
  ) {}

  /** Resolves once subscribed (or after the first failed attempt, with a retry scheduled). */
  async start(): Promise<void> {
    await this.connect();
  }

  get listening() {
    return this.client !== undefined;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'gateway_keys_listener' });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.sink.setCaching(false);
      if (!this.stopped) this.logger.warn({ err }, 'key change subscription lost; caching off until it is back');
      client.end().catch(() => undefined);
      this.schedule();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      if (msg.channel === KEYS_CHANNEL && msg.payload) this.sink.invalidate(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEYS_CHANNEL}`);
      this.client = client;
      this.retryMs = 250;
      // Anything cached before this point may have missed a notification.
      this.sink.setCaching(true);
    } catch (err) {
      client.removeAllListeners('end');
      client.end().catch(() => undefined);
      this.logger.warn({ err }, 'cannot subscribe to key changes; retrying');
      this.schedule();
    }
  }

  private schedule() {
    if (this.stopped || this.timer) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, delay);
    this.timer.unref();
  }

  async close() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.sink.setCaching(false);
    await client?.end().catch(() => undefined);
  }
}
