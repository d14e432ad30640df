import { Client, type ClientConfig } from 'pg';
import type { Logger } from '@platform/observability';

export interface ListenHandlers {
  /** A NOTIFY on the channel (delivered at its sender's commit). */
  onNotify(payload: string | undefined): void;
  /**
   * The subscription is (again) in place. Notifications sent while it was down are lost, so a
   * caller that caches or polls catches up here.
   */
  onUp?(): void;
  /** The subscription is down (lost, or not yet made); a reconnect is scheduled unless stopped. */
  onDown?(): void;
}

export interface Listener {
  /** Whether the subscription is in place now. */
  readonly listening: boolean;
  /** Resolves after the first attempt to subscribe, whether it succeeded or a retry is scheduled. */
  readonly started: Promise<void>;
  stop(): Promise<void>;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/**
 * A dedicated connection LISTENing on one channel. It reconnects with growing delays after
 * losing the connection (or failing to make it) and says when the subscription is up or down.
 * Without connection settings it only logs that the caller polls alone.
 */
export function listen(
  config: ClientConfig | undefined,
  channel: string,
  handlers: ListenHandlers,
  log: Logger,
): Listener {
  if (!config) log.info({ channel }, 'no LISTEN connection configured; polling only');
  const subscription = new Subscription(config, channel, handlers, log);
  const started = subscription.connect();
  return {
    get listening() {
      return subscription.client !== undefined;
    },
    started,
    stop: () => subscription.stop(),
  };
}

class Subscription {
  /** The connection while the subscription is in place. */
  client: Client | undefined;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private delay = FIRST_RETRY_MS;

  constructor(
    private readonly config: ClientConfig | undefined,
    private readonly channel: string,
    private readonly handlers: ListenHandlers,
    private readonly log: Logger,
  ) {}

  async connect(): Promise<void> {
    if (this.stopped || !this.config) return;
    const c = new Client(this.config);
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      this.lose(c, err);
    };
    c.on('error', onLost);
    c.on('end', () => onLost());
    c.on('notification', (msg) => {
      if (msg.channel === this.channel) this.handlers.onNotify(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${this.channel.replace(/"/g, '""')}"`);
      if (lost || this.stopped) return void c.end().catch(() => undefined);
      this.client = c;
      this.delay = FIRST_RETRY_MS;
      this.handlers.onUp?.();
    } catch (err) {
      onLost(err as Error);
    }
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  private lose(c: Client, err: Error | undefined) {
    const wasUp = this.client === c;
    if (wasUp) this.client = undefined;
    void c.end().catch(() => undefined);
    if (this.stopped) return;
    this.log.warn({ err: err?.message, channel: this.channel }, 'LISTEN connection lost; reconnecting');
    if (wasUp) this.handlers.onDown?.();
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, this.delay);
    this.timer.unref();
    this.delay = Math.min(this.delay * 2, MAX_RETRY_MS);
  }
}
