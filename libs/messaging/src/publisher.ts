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
  const channels = publisherChannel(amqp, log, options.channelWaitMs);
  return {
    async publish(exchange, routingKey, content, opts) {
      const state = await channels.current();
      await ensureExchange(state, exchange);
      await publishConfirmed(
        state,
        { exchange, routingKey, content, messageId: opts.messageId, headers: opts.headers ?? {} },
        opts.timeoutMs ?? confirmTimeoutMs,
        () => channels.discard(state),
      );
    },
    close: () => channels.close(),
  };
}

/** The publisher's one confirm channel: opened on first use and again after it is lost or discarded. */
function publisherChannel(amqp: AmqpConnection, log: Logger, channelWaitMs: number | undefined) {
  let current: Promise<ChannelState> | undefined;
  // The state behind `current`, so a closing old channel does not clear a newer one.
  let currentState: ChannelState | undefined;
  let closed = false;

  function forget(state: ChannelState) {
    if (currentState !== state) return;
    currentState = undefined;
    current = undefined;
  }

  async function open(): Promise<ChannelState> {
    const channel = await amqp.createConfirmChannel(channelWaitMs);
    const state: ChannelState = { channel, pending: new Set(), byMessageId: new Map(), exchanges: new Map() };
    watchChannel(state, log, () => forget(state));
    currentState = state;
    return state;
  }

  return {
    async current(): Promise<ChannelState> {
      if (closed) throw new ChannelClosedError('publisher is closed');
      if (!current) {
        const opening = open();
        current = opening;
        opening.catch(() => {
          if (current === opening) current = undefined;
        });
      }
      return current;
    },
    discard(state: ChannelState) {
      forget(state);
      void closeQuietly(state.channel);
    },
    async close() {
      closed = true;
      const state = await current?.catch(() => undefined);
      current = undefined;
      if (state) await closeQuietly(state.channel);
    },
  };
}

/** Marks returned messages (to fail at their confirm) and fails every pending publish when the channel closes. */
function watchChannel(state: ChannelState, log: Logger, onClose: () => void) {
  // The broker sends basic.return before the ack of the same message, so mark it here and
  // reject when the confirm arrives.
  state.channel.on('return', (msg: Message) => {
    const entry = state.byMessageId.get(String(msg.properties.messageId))?.find((p) => !p.returned);
    if (entry) entry.returned = true;
    // Re-assert on the next publish: the alternate exchange may have been deleted.
    state.exchanges.delete(msg.fields.exchange);
    log.warn(
      { exchange: msg.fields.exchange, routingKey: msg.fields.routingKey, messageId: msg.properties.messageId },
      'message returned unroutable',
    );
  });
  state.channel.on('close', () => {
    onClose();
    for (const p of [...state.pending])
      p.settle(new ChannelClosedError('amqp channel closed before the publish was confirmed'));
  });
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

interface Outgoing {
  exchange: string;
  routingKey: string;
  content: Buffer;
  messageId: string;
  headers: Record<string, unknown>;
}

/** Publishes on the channel and settles on its confirm, a failure, or the deadline (which discards the channel). */
function publishConfirmed(state: ChannelState, out: Outgoing, timeoutMs: number, discard: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      entry.settle(new ConfirmTimeoutError(`no publisher confirm within ${timeoutMs} ms`));
      // A channel that loses confirms is not trusted again.
      discard();
    }, timeoutMs);
    const entry = trackPending(state, out.messageId, (err) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    });
    try {
      const properties = {
        mandatory: true,
        persistent: true,
        contentType: 'application/json',
        messageId: out.messageId,
        headers: out.headers,
        timestamp: Date.now(),
      };
      state.channel.publish(out.exchange, out.routingKey, out.content, properties, (err: unknown) =>
        entry.settle(confirmError(err, entry.returned, out)),
      );
    } catch (err) {
      // amqplib throws synchronously when the channel is already closed.
      entry.settle(new ChannelClosedError(`publish failed: ${(err as Error).message}`));
      discard();
    }
  });
}

/** Registers a publish awaiting its confirm; settle() (once, later calls are ignored) unregisters it and calls done. */
function trackPending(state: ChannelState, messageId: string, done: (err?: Error) => void): Pending {
  let settled = false;
  const entry: Pending = {
    messageId,
    returned: false,
    settle(err) {
      if (settled) return;
      settled = true;
      state.pending.delete(entry);
      const rest = state.byMessageId.get(messageId)?.filter((p) => p !== entry) ?? [];
      if (rest.length) state.byMessageId.set(messageId, rest);
      else state.byMessageId.delete(messageId);
      done(err);
    },
  };
  state.pending.add(entry);
  state.byMessageId.set(messageId, [...(state.byMessageId.get(messageId) ?? []), entry]);
  return entry;
}

/** What the broker's confirm callback means for a publish: undefined when it is safely stored. */
export function confirmError(
  err: unknown,
  returned: boolean,
  out: Pick<Outgoing, 'exchange' | 'routingKey' | 'messageId'>,
): Error | undefined {
  // amqplib fails outstanding callbacks with 'channel closed' when the channel goes.
  if (err && String((err as Error).message) === 'channel closed')
    return new ChannelClosedError('amqp channel closed before the publish was confirmed');
  if (err) return new PublishNackedError(`broker nacked message ${out.messageId}`);
  if (returned)
    return new UnroutableError(`message ${out.messageId} to ${out.exchange}/${out.routingKey} was unroutable`);
  return undefined;
}
