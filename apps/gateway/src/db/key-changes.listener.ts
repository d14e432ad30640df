import { listen, type Listener } from '@platform/db';
import type { Logger } from '@platform/observability';
import { KEYS_CHANNEL } from './tables';

export interface KeyChangeSink {
  setCaching(on: boolean): void;
  invalidate(prefix: string): void;
}

/**
 * LISTENs on gateway_keys so a revocation reaches every gateway at once. The sink caches keys only
 * while the subscription is up: anything cached before it came (back) may have missed a
 * notification, so caching starts afresh each time it does.
 */
export async function listenForKeyChanges(databaseUrl: string, sink: KeyChangeSink, logger: Logger): Promise<Listener> {
  const listener = listen(
    { connectionString: databaseUrl, application_name: 'gateway_keys_listener' },
    KEYS_CHANNEL,
    {
      onNotify: (prefix) => {
        if (prefix) sink.invalidate(prefix);
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
