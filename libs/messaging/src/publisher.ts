import type { ConfirmChannel, Message } from 'amqplib';
import type { Logger } from '@platform/observability';
import { closeQuietly, type AmqpConnection } from './connection';
import { assertEventExchange } from './topology';

/** The broker returned the message: no queue (and no alternate exchange) took it. */
export class UnroutableError extends Error {
  override name = 'UnroutableError';
}
/** No confirm within the deadline; the message may or may not have reached the broker. */
export class ConfirmTimeoutError extends Error {
  override name = 'ConfirmTimeoutError';
}
/** The broker nacked the message (internal error); it was not stored. */
export class PublishNackedError extends Error {
  override name = 'PublishNackedError';
}
/** The channel or connection closed before the confirm arrived. */
export class ChannelClosedError extends Error {
  override name = 'ChannelClosedError';
}

export interface PublishOptions {
  messageId: string;
  headers?: Record<string, unknown>;
  /** Confirm deadline; defaults to the publisher's confirmTimeoutMs. */
  timeoutMs?: number;
}

export interface Publisher {
  /**
   * Publishes persistent + mandatory to a (durable topic) event exchange, asserting it first, and
   * resolves on the broker's ack. Rejects on nack, return (unroutable), confirm timeout, or when
   * the channel/connection closes first. Never waits forever.
   */
  publish(exchange: string, routingKey: string, content: Buffer, options: PublishOptions): Promise<void>;
  close(): Promise<void>;
}

export interface PublisherOptions {
  confirmTimeoutMs?: number;
  /** How long a publish waits for a connection while the broker is down. */
  channelWaitMs?: number;
}

interface Pending {
  messageId: string;
  returned: boolean;
  settle(err?: Error): void;
}

interface ChannelState {
  channel: ConfirmChannel;
  pending: Set<Pending>;
  byMessageId: Map<string, Pending[]>;
  exchanges: Map<string, Promise<void>>;
}

export function createPublisher(amqp: AmqpConnection, logger: Logger, options: PublisherOptions = {}): Publisher {
  const log = logger.child({ component: 'amqp-publisher' });
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 5_000;
  let current: Promise<ChannelState> | undefined;
  // The state behind `current`, so a closing old channel does not clear a newer one.
  let currentState: ChannelState | undefined;
  let closed = false;

  async function open(): Promise<ChannelState> {
    const channel = await amqp.createConfirmChannel(options.channelWaitMs);
    const state: ChannelState = { channel, pending: new Set(), byMessageId: new Map(), exchanges: new Map() };
    // The broker sends basic.return before the ack of the same message, so mark it here and
    // reject when the confirm arrives.
    channel.on('return', (msg: Message) => {
      const entry = state.byMessageId.get(String(msg.properties.messageId))?.find((p) => !p.returned);
      if (entry) entry.returned = true;
      // Re-assert on the next publish: the alternate exchange may have been deleted.
      state.exchanges.delete(msg.fields.exchange);
      log.warn({ exchange: msg.fields.exchange, routingKey: msg.fields.routingKey, messageId: msg.properties.messageId }, 'message returned unroutable');
    });
    channel.on('close', () => {
      forget(state);
      for (const p of [...state.pending]) p.settle(new ChannelClosedError('amqp channel closed before the publish was confirmed'));
    });
    currentState = state;
    return state;
  }

  function forget(state: ChannelState) {
    if (currentState !== state) return;
    currentState = undefined;
    current = undefined;
  }

  async function channelState(): Promise<ChannelState> {
    if (closed) throw new ChannelClosedError('publisher is closed');
    if (!current) {
      const opening = open();
      current = opening;
      opening.catch(() => {
        if (current === opening) current = undefined;
      });
    }
    return current;
  }

  function discard(state: ChannelState) {
    forget(state);
    void closeQuietly(state.channel);
  }

  async function ensureExchange(state: ChannelState, exchange: string) {
    let asserting = state.exchanges.get(exchange);
    if (!asserting) {
      asserting = assertEventExchange(state.channel, exchange);
      state.exchanges.set(exchange, asserting);
      asserting.catch(() => state.exchanges.delete(exchange));
    }
    await asserting;
  }

  return {
    async publish(exchange, routingKey, content, opts) {
      const state = await channelState();
      await ensureExchange(state, exchange);
      await new Promise<void>((resolve, reject) => {
        let done = false;
        const entry: Pending = {
          messageId: opts.messageId,
          returned: false,
          settle(err) {
            if (done) return;
            done = true;
            clearTimeout(timer);
            state.pending.delete(entry);
            const list = state.byMessageId.get(entry.messageId);
            const rest = list?.filter((p) => p !== entry) ?? [];
            if (rest.length) state.byMessageId.set(entry.messageId, rest);
            else state.byMessageId.delete(entry.messageId);
            if (err) reject(err);
            else resolve();
          },
        };
        const timeoutMs = opts.timeoutMs ?? confirmTimeoutMs;
        const timer = setTimeout(() => {
          entry.settle(new ConfirmTimeoutError(`no publisher confirm within ${timeoutMs} ms`));
          // A channel that loses confirms is not trusted again.
          discard(state);
        }, timeoutMs);
        state.pending.add(entry);
        state.byMessageId.set(opts.messageId, [...(state.byMessageId.get(opts.messageId) ?? []), entry]);
        try {
          state.channel.publish(
            exchange,
            routingKey,
            content,
            { mandatory: true, persistent: true, contentType: 'application/json', messageId: opts.messageId, headers: opts.headers ?? {}, timestamp: Date.now() },
            (err: unknown) => {
              // amqplib fails outstanding callbacks with 'channel closed' when the channel goes.
              if (err && String((err as Error).message) === 'channel closed') entry.settle(new ChannelClosedError('amqp channel closed before the publish was confirmed'));
              else if (err) entry.settle(new PublishNackedError(`broker nacked message ${opts.messageId}`));
              else if (entry.returned) entry.settle(new UnroutableError(`message ${opts.messageId} to ${exchange}/${routingKey} was unroutable`));
              else entry.settle();
            },
          );
        } catch (err) {
          // amqplib throws synchronously when the channel is already closed.
          entry.settle(new ChannelClosedError(`publish failed: ${(err as Error).message}`));
          discard(state);
        }
      });
    },
    async close() {
      closed = true;
      const state = await current?.catch(() => undefined);
      current = undefined;
      if (state) await closeQuietly(state.channel);
    },
  };
}
