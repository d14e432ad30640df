import Redis from 'ioredis';
import type { Logger } from '@platform/observability';

export interface RedisSettings {
  url: string;
  /** A command not answered within this long fails (the caller falls back), so a hung Redis does not stall requests. */
  commandTimeoutMs: number;
}

/** Reconnect back-off: 100 ms more per attempt, at most 2 s, for ever (the limits recover on their own). */
const reconnectDelay = (attempt: number) => Math.min(attempt * 100, 2_000);

/**
 * The coordination connection: connects in the background (boot does not wait for Redis), never
 * queues a command while down (it fails at once and the caller falls back to its own memory), and
 * reconnects for ever with a bounded back-off. Errors are logged once per outage, never thrown.
 */
export function connectRedis(settings: RedisSettings, logger: Logger): Redis {
  const redis = new Redis(settings.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: settings.commandTimeoutMs,
    connectTimeout: 1_000,
    retryStrategy: reconnectDelay,
    // Commands issued in one turn of the event loop (many requests' limit checks) go in one write.
    enableAutoPipelining: true,
  });
  let reported = false;
  redis.on('error', (err: Error) => {
    if (reported) return;
    reported = true;
    // The URL may hold a password: only the message is logged.
    logger.warn({ error: err.message }, 'Redis connection failed; retrying');
  });
  redis.on('ready', () => {
    reported = false;
  });
  redis.connect().catch(() => undefined);
  return redis;
}
