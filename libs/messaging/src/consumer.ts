import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { Pool } from 'pg';
import { EVENT_REGISTRY, eventMessageSchema, isEventName, type EventMessage, type EventName, type MessageOf } from '@platform/contracts';
import { REQUEST_ID_HEADER, runWithContext, type Logger } from '@platform/observability';
import { closeQuietly, withTimeout, type AmqpConnection } from './connection';
import { recordProcessed } from './processed';
import { assertConsumerTopology, consumerQueueNames } from './topology';

export const ATTEMPT_HEADER = 'x-attempt';
export const PARKED_REASON_HEADER = 'x-parked-reason';
export const LAST_ERROR_HEADER = 'x-last-error';

/** What a handler may do beside its transaction. */
export interface HandlerHooks {
  /** Runs once the handler's transaction has committed, before the message is acked (e.g. hand new work to an in-process worker). */
  afterCommit(fn: () => void): void;
}

/** Typed handlers by event name; each runs inside the transaction that records the message id. */
export type EventHandlers<DB> = { [N in EventName]?: (message: MessageOf<N>, trx: Transaction<DB>, hooks: HandlerHooks) => Promise<void> };
type AnyHandler<DB> = (message: EventMessage, trx: Transaction<DB>, hooks: HandlerHooks) => Promise<void>;

export interface ConsumerOptions<DB> {
  amqp: AmqpConnection;
  pool?: Pool;
  db?: Kysely<DB>;
  /** Schema holding processed_messages (see consumerMigration). */
  schema: string;
  exchange: string;
  /** Work queue name; also the consumer's idempotency scope. */
  queue: string;
  /** Routing keys or topic patterns, e.g. ['domain.created', 'subscription.*']; default: the names in `handlers`. */
  bindings?: string[];
  /**
   * Handlers by event name, with the payload typed and checked against the event registry
   * (a payload that fails its schema is parked at once, never retried).
   */
  handlers?: EventHandlers<DB>;
  /** For every other message (e.g. all public events); registered events are checked the same way. */
  handler?: AnyHandler<DB>;
  logger: Logger;
  prefetch?: number;
  /** One delay queue per step. */
  retryDelaysMs?: number[];
  /** Handler runs before parking; default retryDelaysMs.length + 1 (the last delay repeats). */
  maxAttempts?: number;
  /** Broker-side redelivery limit (crashes, lost channels) before a message is parked. */
  deliveryLimit?: number;
  confirmTimeoutMs?: number;
}

export interface Consumer {
  /** Resolves once the queues are declared, bound and consumed from (first time). */
  ready(timeoutMs?: number): Promise<void>;
  /** Cancels consumption, waits for handlers in flight, closes the channel. */
  stop(): Promise<void>;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

/**
 * An idempotent consumer on a quorum queue. Ack only after the handler's transaction commits;
 * a failure goes to the next delay queue (then back to the work queue), and after maxAttempts
 * to `<queue>.parked`; an invalid message is parked at once. The channel is re-opened (and the
 * topology re-declared) whenever it or the connection is lost.
 */
export function startConsumer<DB = unknown>(options: ConsumerOptions<DB>): Consumer {
  const { queue, schema } = options;
  const log = options.logger.child({ component: 'consumer', queue });
  if (!options.db && !options.pool) throw new Error('startConsumer needs a pool or a db');
  const db = options.db ?? new Kysely<DB>({ dialect: new PostgresDialect({ pool: options.pool as Pool }) });
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxAttempts = Math.max(1, options.maxAttempts ?? retryDelaysMs.length + 1);
  if (maxAttempts > 1 && retryDelaysMs.length === 0) throw new Error('retries need at least one retry delay');
  const names = consumerQueueNames(queue, retryDelaysMs.length);
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 5_000;
  const typed = (options.handlers ?? {}) as Record<string, AnyHandler<DB> | undefined>;
  const bindings = options.bindings ?? Object.keys(typed);
  if (bindings.length === 0) throw new Error('startConsumer needs bindings or handlers');
  if (!options.handler && Object.keys(typed).length === 0) throw new Error('startConsumer needs handlers or a handler');

  let stopped = false;
  let channel: ConfirmChannel | undefined;
  let consumerTag: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = 200;
  const inflight = new Set<Promise<void>>();
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));

  async function setup() {
    const ch = await options.amqp.createConfirmChannel();
    try {
      await ch.prefetch(options.prefetch ?? 10);
      await assertConsumerTopology(ch, {
        exchange: options.exchange,
        queue,
        bindings,
        retryDelaysMs,
        deliveryLimit: options.deliveryLimit ?? 5,
      });
      ch.on('close', () => {
        if (channel !== ch) return;
        channel = undefined;
        if (!stopped) {
          log.warn('consumer channel closed; re-opening');
          schedule();
        }
      });
      if (stopped) throw new Error('stopped');
      const reply = await ch.consume(queue, (msg) => {
        // null: the broker cancelled us (queue deleted); re-open and re-declare.
        if (msg === null) return void closeQuietly(ch);
        const work = handle(ch, msg).finally(() => inflight.delete(work));
        inflight.add(work);
      });
      channel = ch;
      consumerTag = reply.consumerTag;
      delay = 200;
      log.info({ bindings }, 'consumer started');
      markReady();
    } catch (err) {
      await closeQuietly(ch);
      throw err;
    }
  }

  function schedule() {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => {
      setup().catch((err: unknown) => {
        if (stopped) return;
        log.warn({ err: (err as Error)?.message }, 'consumer setup failed; retrying');
        delay = Math.min(delay * 2, 10_000);
        schedule();
      });
    }, delay);
    timer.unref();
  }

  async function handle(ch: ConfirmChannel, msg: ConsumeMessage) {
    const headers: Record<string, unknown> = msg.properties.headers ?? {};
    const failures = Number(headers[ATTEMPT_HEADER] ?? 0) || 0;
    let message: EventMessage;
    try {
      message = eventMessageSchema.parse(JSON.parse(msg.content.toString('utf8')));
      // A registered event must carry its registered payload; a retry would not fix it.
      const name = message.payload.event;
      if (isEventName(name)) EVENT_REGISTRY[name].schema.parse(message.payload);
    } catch (err) {
      log.warn({ messageId: msg.properties.messageId, err: (err as Error).message.slice(0, 500) }, 'invalid message parked');
      return settle(ch, msg, () => send(ch, names.parked, msg, { [PARKED_REASON_HEADER]: 'invalid', [LAST_ERROR_HEADER]: errorText(err) }));
    }
    const handler = typed[message.payload.event] ?? options.handler;
    if (!handler) {
      // Bound by a pattern that also matches events this consumer does not handle.
      log.debug({ event: message.payload.event }, 'no handler for event; acknowledged');
      return ack(ch, msg);
    }
    const requestId = typeof headers[REQUEST_ID_HEADER] === 'string' ? (headers[REQUEST_ID_HEADER] as string) : randomUUID();
    await runWithContext({ requestId }, async () => {
      const mlog = log.child({ messageId: message.id, event: message.payload.event });
      try {
        let fresh = false;
        const committed: (() => void)[] = [];
        await db.transaction().execute(async (trx) => {
          fresh = await recordProcessed(trx, schema, queue, message.id);
          if (fresh) await handler(message, trx, { afterCommit: (fn) => committed.push(fn) });
        });
        for (const fn of committed) {
          try {
            fn();
          } catch (err) {
            mlog.error({ err: errorText(err) }, 'after-commit hook failed');
          }
        }
        mlog.debug({ duplicate: !fresh }, fresh ? 'message handled' : 'duplicate message skipped');
        ack(ch, msg);
      } catch (err) {
        const attempt = failures + 1;
        const extra = { [ATTEMPT_HEADER]: attempt, [LAST_ERROR_HEADER]: errorText(err) };
        if (attempt < maxAttempts) {
          const target = names.retry[Math.min(attempt, retryDelaysMs.length) - 1];
          mlog.warn({ err: errorText(err), attempt, retryQueue: target }, 'handler failed; retrying later');
          await settle(ch, msg, () => send(ch, target, msg, extra));
        } else {
          mlog.error({ err: errorText(err), attempt }, 'handler failed; message parked');
          await settle(ch, msg, () => send(ch, names.parked, msg, { ...extra, [PARKED_REASON_HEADER]: 'attempts exhausted' }));
        }
      }
    });
  }

  /** Moves the message on (confirmed), then acks it; if that fails it is requeued by the broker. */
  async function settle(ch: ConfirmChannel, msg: ConsumeMessage, forward: () => Promise<void>) {
    try {
      await forward();
      ack(ch, msg);
    } catch (err) {
      log.warn({ err: errorText(err) }, 'could not forward message; requeueing');
      try {
        ch.nack(msg, false, true);
      } catch {
        // Channel gone: the broker requeues unacked messages itself.
      }
    }
  }

  function ack(ch: ConfirmChannel, msg: ConsumeMessage) {
    try {
      ch.ack(msg);
    } catch {
      // Channel gone after commit: the redelivery is recognised as a duplicate.
    }
  }

  function send(ch: ConfirmChannel, target: string, msg: ConsumeMessage, extra: Record<string, unknown>): Promise<void> {
    const props: Options.Publish = {
      persistent: true,
      contentType: msg.properties.contentType,
      messageId: msg.properties.messageId,
      headers: { ...(msg.properties.headers ?? {}), ...extra },
    };
    const confirmed = new Promise<void>((resolve, reject) => {
      ch.sendToQueue(target, msg.content, props, (err: unknown) => (err ? reject(new Error(`broker nacked forward to ${target}`)) : resolve()));
    });
    return withTimeout(confirmed, confirmTimeoutMs, `no confirm forwarding to ${target} within ${confirmTimeoutMs} ms`);
  }

  void setup().catch((err: unknown) => {
    log.warn({ err: (err as Error)?.message }, 'consumer setup failed; retrying');
    schedule();
  });

  return {
    ready: (timeoutMs = 10_000) => withTimeout(readyPromise, timeoutMs, `consumer ${queue} not ready within ${timeoutMs} ms`),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const ch = channel;
      channel = undefined;
      if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => undefined);
      await Promise.allSettled([...inflight]);
      await closeQuietly(ch);
    },
  };
}

function errorText(err: unknown): string {
  return String(err instanceof Error ? err.message : err).slice(0, 1_000);
}
