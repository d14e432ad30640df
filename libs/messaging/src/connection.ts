import { connect, type Channel, type ConfirmChannel, type RecoveringChannelModel } from 'amqplib';
import type { Logger } from '@platform/observability';
import { brokerUrls, rotatingAddress } from './broker-list';

export interface AmqpConnection {
  /**
   * A new confirm channel on the current connection. While the broker is unreachable this waits
   * for the next successful reconnect, at most `timeoutMs`, then rejects (callers retry later).
   */
  createConfirmChannel(timeoutMs?: number): Promise<ConfirmChannel>;
  /** Resolves once connected (or rejects after timeoutMs); use it to fail fast at boot. */
  ready(timeoutMs?: number): Promise<void>;
  isConnected(): boolean;
  /** Closes the connection and stops reconnecting. Channels of this connection close with it. */
  close(): Promise<void>;
}

export interface AmqpConnectOptions {
  /** First reconnect delay; doubles up to maxDelayMs (with jitter). */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Socket connect timeout, so a black-holed broker address does not hang an attempt. */
  connectTimeoutMs?: number;
}

const DEFAULT_CHANNEL_WAIT_MS = 5_000;

/** The URL (or comma-separated URLs) without passwords, for log lines and error messages. */
function redactAmqpUrl(url: string): string {
  if (url.includes(',')) return brokerUrls(url).map(redactAmqpUrl).join(',');
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'amqp://<unparseable url>';
  }
}

/**
 * Connects to RabbitMQ and keeps reconnecting with exponential backoff (amqplib's recovering
 * model) after the connection drops. Returns at once: the first attempt runs in the background,
 * so a service (or relay) can start while the broker is down and catch up when it is back.
 * Channels do not survive a reconnect; their owners (publisher, consumer) open new ones.
 * `url` may list several nodes of one cluster, comma-separated: each failed attempt to connect
 * moves on to the next node (broker-list.ts).
 */
export async function connectAmqp(
  url: string,
  logger: Logger,
  options: AmqpConnectOptions = {},
): Promise<AmqpConnection> {
  const log = logger.child({ component: 'amqp', broker: redactAmqpUrl(url) });
  const nodes = rotatingAddress(url);
  const model: RecoveringChannelModel = await connect(nodes.count > 1 ? nodes.address : url, {
    timeout: options.connectTimeoutMs ?? 5_000,
    recovery: {
      initialDelay: options.initialDelayMs ?? 100,
      maxDelay: options.maxDelayMs ?? 10_000,
      waitForConnect: false,
    },
  });
  let connected = false;
  let closed = false;
  model.on('connect', () => {
    connected = true;
    log.info({ node: redactAmqpUrl(nodes.current()) }, 'amqp connected');
  });
  model.on('disconnect', (err: Error) => {
    connected = false;
    log.warn({ err: err.message }, 'amqp connection lost; reconnecting');
  });
  model.on('connect-failed', (err: Error) => {
    log.debug({ err: err.message, node: redactAmqpUrl(nodes.current()) }, 'amqp connect attempt failed');
    nodes.next();
  });
  model.on('reconnect-failed', (err: Error) => log.error({ err: err.message }, 'amqp reconnect abandoned'));
  model.on('blocked', (reason: string) => log.warn({ reason }, 'amqp connection blocked by broker'));
  model.on('unblocked', () => log.info('amqp connection unblocked'));
  // Without a listener an 'error' event would crash the process; the close that follows reconnects.
  model.on('error', (err: Error) => log.warn({ err: err.message }, 'amqp connection error'));

  return {
    async createConfirmChannel(timeoutMs = DEFAULT_CHANNEL_WAIT_MS) {
      if (closed) throw new Error('amqp connection is closed');
      const pending = model.createConfirmChannel();
      const channel = await withTimeout(
        pending,
        timeoutMs,
        `no amqp connection to ${redactAmqpUrl(url)} within ${timeoutMs} ms`,
        (late) => closeQuietly(late),
      );
      // A channel-level error (e.g. 404 on a missing exchange) is followed by 'close'; owners react to that.
      channel.on('error', (err: Error) => log.warn({ err: err.message }, 'amqp channel error'));
      return channel;
    },
    async ready(timeoutMs = DEFAULT_CHANNEL_WAIT_MS) {
      await withTimeout(model.waitForConnect(), timeoutMs, `RabbitMQ is not reachable at ${redactAmqpUrl(url)}`);
    },
    isConnected: () => connected,
    async close() {
      if (closed) return;
      closed = true;
      await withTimeout(model.close(), CLOSE_TIMEOUT_MS, 'connection close timed out').catch((err: Error) =>
        log.warn({ err: err.message }, 'amqp close'),
      );
    },
  };
}

const CLOSE_TIMEOUT_MS = 2_000;

/**
 * Closes a channel, ignoring the error if it (or its connection) is already closed, and not
 * waiting more than a moment for a close-ok that a dead connection never sends.
 */
export async function closeQuietly(channel: Channel | undefined): Promise<void> {
  if (!channel) return;
  await withTimeout(channel.close(), CLOSE_TIMEOUT_MS, 'channel close timed out').catch(() => undefined);
}

/**
 * Rejects after ms; a value that arrives after the timeout goes to onLate (so a channel opened
 * by a late reconnect is closed instead of leaking).
 */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  message: string,
  onLate?: (value: T) => unknown,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(message));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (timedOut) void onLate?.(value);
        else resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(err);
      },
    );
  });
}
