import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@platform/observability';
import { closeQuietly, type AmqpConnection } from './connection';
import { assertConsumerTopology, type ConsumerTopology } from './topology';

export interface ConsumerChannelOptions {
  amqp: AmqpConnection;
  prefetch: number;
  topology: ConsumerTopology;
  log: Logger;
  onMessage(ch: ConfirmChannel, msg: ConsumeMessage): void;
}

export interface ConsumerChannel {
  /** Resolves once the queues are declared, bound and consumed from (first time). */
  ready: Promise<void>;
  /** Stops re-opening, cancels consumption, waits for `settled` (the handlers in flight), closes the channel. */
  stop(settled: () => Promise<void>): Promise<void>;
}

const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 10_000;

/**
 * Keeps one channel consuming the work queue: declares the topology, consumes, and re-opens it
 * (declaring again, with a growing delay after failed tries) whenever it or the connection is lost.
 */
export function superviseConsumerChannel(o: ConsumerChannelOptions): ConsumerChannel {
  let stopped = false;
  let channel: ConfirmChannel | undefined;
  let consumerTag: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = FIRST_RETRY_MS;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  async function setup() {
    const opened = await openConsuming(o, () => stopped, onClosed);
    channel = opened.ch;
    consumerTag = opened.consumerTag;
    delay = FIRST_RETRY_MS;
    o.log.info({ bindings: o.topology.bindings }, 'consumer started');
    markReady();
  }

  function onClosed(ch: ConfirmChannel) {
    if (channel !== ch) return;
    channel = undefined;
    if (stopped) return;
    o.log.warn('consumer channel closed; re-opening');
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => {
      setup().catch((err: unknown) => {
        if (stopped) return;
        o.log.warn({ err: (err as Error)?.message }, 'consumer setup failed; retrying');
        delay = Math.min(delay * 2, MAX_RETRY_MS);
        schedule();
      });
    }, delay);
    timer.unref();
  }

  void setup().catch((err: unknown) => {
    o.log.warn({ err: (err as Error)?.message }, 'consumer setup failed; retrying');
    schedule();
  });

  return {
    ready,
    async stop(settled) {
      stopped = true;
      clearTimeout(timer);
      const ch = channel;
      channel = undefined;
      if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => undefined);
      await settled();
      await closeQuietly(ch);
    },
  };
}

/** Opens a channel, declares the topology and consumes from the work queue; `onClose` hears the channel close. */
async function openConsuming(
  o: ConsumerChannelOptions,
  isStopped: () => boolean,
  onClose: (ch: ConfirmChannel) => void,
) {
  const ch = await o.amqp.createConfirmChannel();
  try {
    await ch.prefetch(o.prefetch);
    await assertConsumerTopology(ch, o.topology);
    ch.on('close', () => onClose(ch));
    if (isStopped()) throw new Error('stopped');
    const reply = await ch.consume(o.topology.queue, (msg) => {
      // null: the broker cancelled us (queue deleted); re-open and re-declare.
      if (msg === null) return void closeQuietly(ch);
      o.onMessage(ch, msg);
    });
    return { ch, consumerTag: reply.consumerTag };
  } catch (err) {
    await closeQuietly(ch);
    throw err;
  }
}
