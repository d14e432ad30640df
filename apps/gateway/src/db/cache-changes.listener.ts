import { listen, type Listener } from '@platform/db';
import type { Logger } from '@platform/observability';

/** A cache kept true by NOTIFY: what its channel's payload names is dropped. */
export interface CacheChangeSink {
  setCaching(on: boolean): void;
  invalidate(payload: string): void;
}

/**
 * LISTENs on one channel (gateway_keys, gateway_sessions) so a change reaches every gateway at
 * once. The sink caches only while the subscription is up: anything cached before it came (back)
 * may have missed a notification, so caching starts afresh each time it does.
 */
export async function listenForCacheChanges(
  databaseUrl: string,
  channel: string,
  sink: CacheChangeSink,
  logger: Logger,
): Promise<Listener> {
  const listener = listen(
    { connectionString: databaseUrl, application_name: `${channel}_listener` },
    channel,
    {
      onNotify: (payload) => {
        if (payload) sink.invalidate(payload);
      },
      onUp: () => sink.setCaching(true),
      onDown: () => sink.setCaching(false),
    },
    logger,
  );
  await listener.started;
  return {
    get listening() {
      return listener.listening;
    },
    started: listener.started,
    async stop() {
      await listener.stop();
      sink.setCaching(false);
    },
  };
}

/** One channel's notices for two caches (the sessions and the widgets' partners both hear gateway_sessions). */
export const bothSinks = (a: CacheChangeSink, b: CacheChangeSink): CacheChangeSink => ({
  setCaching(on) {
    a.setCaching(on);
    b.setCaching(on);
  },
  invalidate(payload) {
    a.invalidate(payload);
    b.invalidate(payload);
  },
});
