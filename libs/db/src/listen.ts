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
export function listen(config: ClientConfig | undefined, channel: string, handlers: ListenHandlers, log: Logger): Listener {
  let stopped = false;
  let client: Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = FIRST_RETRY_MS;

  const scheduleReconnect = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  };

  async function connect(): Promise<void> {
    if (stopped || !config) return;
    const c = new Client(config);
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      const wasUp = client === c;
      if (wasUp) client = undefined;
      void c.end().catch(() => undefined);
      if (stopped) return;
      log.warn({ err: err?.message, channel }, 'LISTEN connection lost; reconnecting');
      if (wasUp) handlers.onDown?.();
      scheduleReconnect();
    };
    c.on('error', onLost);
    c.on('end', () => onLost());
    c.on('notification', (msg) => {
      if (msg.channel === channel) handlers.onNotify(msg.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      if (lost || stopped) return void c.end().catch(() => undefined);
      client = c;
      delay = FIRST_RETRY_MS;
      handlers.onUp?.();
    } catch (err) {
      onLost(err as Error);
    }
  }

  if (!config) log.info({ channel }, 'no LISTEN connection configured; polling only');
  const started = connect();
  return {
    get listening() {
      return client !== undefined;
    },
    started,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
