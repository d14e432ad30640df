import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { Pool } from 'pg';
import type { z } from 'zod';
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

/** What a batch handler may do beside its transaction. */
export interface BatchHandlerHooks extends HandlerHooks {
  /** The request id a message carried (for the events the handler writes). */
  requestIdOf(message: EventMessage): string | undefined;
}

/**
 * Handlers of many messages of one event at once, by event name: consecutive fresh messages of
 * that event in a batch, in order, in the batch's transaction (e.g. one insert for 50 rows
 * instead of 50). An event with a batch handler needs no single-message handler.
 */
export type BatchEventHandlers<DB> = { [N in EventName]?: (messages: MessageOf<N>[], trx: Transaction<DB>, hooks: BatchHandlerHooks) => Promise<void> };
type AnyBatchHandler<DB> = (messages: EventMessage[], trx: Transaction<DB>, hooks: BatchHandlerHooks) => Promise<void>;

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
  /** Handlers of several messages of one event at once; they take precedence over `handlers`. */
  batchHandlers?: BatchEventHandlers<DB>;
  /** For every other message (e.g. all public events); registered events are checked the same way. */
  handler?: AnyHandler<DB>;
  logger: Logger;
  /** Unacked messages the broker hands over at once (default 50); also the most one transaction takes. */
  prefetch?: number;
  /**
   * Most messages handled in one transaction (default: prefetch). Messages that arrive while a
   * batch runs form the next one, so batches grow with load and a lone message goes at once.
   */
  maxBatch?: number;
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
 * An idempotent consumer on a quorum queue. Messages are handled in batches, one transaction per
 * batch (one commit and one idempotency insert for many messages), and acked only after it
 * commits. If a batch fails, its messages are handled again one by one: a failure goes to the
 * next delay queue (then back to the work queue), and after maxAttempts to `<queue>.parked`; an
 * invalid message is parked at once. The channel is re-opened (and the topology re-declared)
 * whenever it or the connection is lost.
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
  const handlerNames = [...new Set([...Object.keys(options.handlers ?? {}), ...Object.keys(options.batchHandlers ?? {})])];
  const bindings = options.bindings ?? handlerNames;
  if (bindings.length === 0) throw new Error('startConsumer needs bindings or handlers');
  if (!options.handler && handlerNames.length === 0) throw new Error('startConsumer needs handlers or a handler');
  const handling: EventMessageHandling<DB> = { schema, queue, handlers: options.handlers, batchHandlers: options.batchHandlers, handler: options.handler, logger: log };
  const prefetch = options.prefetch ?? 50;
  const maxBatch = Math.max(1, options.maxBatch ?? prefetch);

  let stopped = false;
  let channel: ConfirmChannel | undefined;
  let consumerTag: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = 200;
  const inflight = new Set<Promise<void>>();
  /** Received and valid, waiting for the next batch. */
  const waiting: Received[] = [];
  let draining = false;
  let markReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (markReady = resolve));

  async function setup() {
    const ch = await options.amqp.createConfirmChannel();
    try {
      await ch.prefetch(prefetch);
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
        track(receive(ch, msg));
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

  function track(work: Promise<void>) {
    const tracked = work.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  }

  function park(r: Pick<Received, 'ch' | 'msg'>, err: unknown) {
    log.warn({ messageId: r.msg.properties.messageId, err: errorText(err).slice(0, 500) }, 'invalid message parked');
    return settle(r.ch, r.msg, () => send(r.ch, names.parked, r.msg, { [PARKED_REASON_HEADER]: 'invalid', [LAST_ERROR_HEADER]: errorText(err) }));
  }

  /** Checks the message; a valid one waits for the next batch, an invalid one is parked at once. */
  async function receive(ch: ConfirmChannel, msg: ConsumeMessage) {
    const headers: Record<string, unknown> = msg.properties.headers ?? {};
    let message: EventMessage;
    try {
      message = eventMessageSchema.parse(JSON.parse(msg.content.toString('utf8')));
      checkPayload(message);
    } catch (err) {
      return park({ ch, msg }, err);
    }
    const requestId = typeof headers[REQUEST_ID_HEADER] === 'string' ? (headers[REQUEST_ID_HEADER] as string) : randomUUID();
    waiting.push({ ch, msg, message, requestId, failures: Number(headers[ATTEMPT_HEADER] ?? 0) || 0 });
    if (!draining) {
      draining = true;
      // After the deliveries already read from the socket, so they join the first batch.
      track(new Promise<void>((resolve) => setImmediate(resolve)).then(drain).finally(() => (draining = false)));
    }
  }

  async function drain() {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, maxBatch);
      if (batch.length > 1) {
        try {
          await handleEventBatch(db, handling, batch);
          for (const r of batch) ack(r.ch, r.msg);
          continue;
        } catch (err) {
          // One message's failure must not hold back the others, nor cost them an attempt.
          log.warn({ err: errorText(err), messages: batch.length }, 'batch failed; handling its messages one by one');
        }
      }
      for (const r of batch) await handleOne(r);
    }
  }

  async function handleOne(r: Received) {
    const { ch, msg, message } = r;
    const mlog = log.child({ messageId: message.id, event: message.payload.event });
    try {
      await handleEventBatch(db, handling, [r]);
      ack(ch, msg);
    } catch (err) {
      const attempt = r.failures + 1;
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

/** A checked message waiting for its batch. */
interface Received {
  ch: ConfirmChannel;
  msg: ConsumeMessage;
  message: EventMessage;
  requestId: string;
  /** Handler failures so far (the retry header). */
  failures: number;
}

/** What handleEventMessage needs of a consumer: its idempotency scope, its handlers, where to log. */
export type EventMessageHandling<DB> = Pick<ConsumerOptions<DB>, 'schema' | 'queue' | 'handlers' | 'batchHandlers' | 'handler' | 'logger'>;

/** A registered event whose payload fails its schema: running it again cannot succeed. */
export class InvalidEventMessageError extends Error {
  override name = 'InvalidEventMessageError';
  constructor(readonly issues: z.ZodError) {
    super(`invalid payload: ${issues.message}`);
  }
}

/** A registered event's payload must match the registry's schema (else InvalidEventMessageError). */
function checkPayload(message: EventMessage) {
  const name = message.payload.event;
  if (!isEventName(name)) return;
  const checked = EVENT_REGISTRY[name].schema.safeParse(message.payload);
  if (!checked.success) throw new InvalidEventMessageError(checked.error);
}

/**
 * Runs one message exactly as a consumer does: checks a registered event's payload against the
 * registry (InvalidEventMessageError), picks the typed handler by event name (else the catch-all),
 * records the id in `queue`'s scope and runs the handler in that transaction, then the
 * after-commit hooks. fresh is false for a message already recorded, or one no handler takes
 * (not recorded, so a consumer that later handles it still can). Another entry point (e.g. a
 * service handing over the event it just committed) shares the consumer's idempotency this way.
 */
export async function handleEventMessage<DB>(db: Kysely<DB>, handling: EventMessageHandling<DB>, message: EventMessage): Promise<{ fresh: boolean }> {
  checkPayload(message);
  const fresh = await handleEventBatch(db, handling, [{ message }]);
  return { fresh: fresh.size === 1 };
}

/**
 * Handles checked messages in one transaction: records the ids of those a handler takes, runs
 * the fresh ones in order (a run of consecutive messages of one event through its batch handler,
 * any other message through its handler in its own request context), commits, then runs the
 * after-commit hooks. Answers the ids that were fresh; if any handler throws, nothing commits.
 */
async function handleEventBatch<DB>(db: Kysely<DB>, handling: EventMessageHandling<DB>, batch: { message: EventMessage; requestId?: string }[]): Promise<Set<string>> {
  // Own keys only: an event named like an Object.prototype member is not a handler.
  const own = <T>(map: Record<string, T | undefined> | undefined, name: string) => (map && Object.hasOwn(map, name) ? map[name] : undefined);
  const batchHandlerOf = (name: string) => own(handling.batchHandlers as Record<string, AnyBatchHandler<DB> | undefined> | undefined, name);
  const handlerOf = (name: string) => own(handling.handlers as Record<string, AnyHandler<DB> | undefined> | undefined, name) ?? handling.handler;
  // E.g. a consumer bound by a pattern that also matches events it does not handle.
  const taken = batch.filter((b) => batchHandlerOf(b.message.payload.event) ?? handlerOf(b.message.payload.event));
  if (taken.length === 0) return new Set();
  const requestIds = new Map(taken.map((b) => [b.message.id, b.requestId]));
  const committed: { event: string; fn: () => void }[] = [];
  let fresh = new Set<string>();
  await db.transaction().execute(async (trx) => {
    fresh = await recordProcessed(trx, handling.schema, handling.queue, taken.map((b) => b.message.id));
    const pending = new Set(fresh);
    // delete: an id given twice in one batch runs once.
    const todo = taken.filter((b) => pending.delete(b.message.id));
    for (let i = 0; i < todo.length; ) {
      const event = todo[i].message.payload.event;
      const hooks = { afterCommit: (fn: () => void) => committed.push({ event, fn }), requestIdOf: (m: EventMessage) => requestIds.get(m.id) };
      const batchHandler = batchHandlerOf(event);
      if (batchHandler) {
        let end = i + 1;
        while (end < todo.length && todo[end].message.payload.event === event) end += 1;
        await batchHandler(todo.slice(i, end).map((b) => b.message), trx, hooks);
        i = end;
      } else {
        const { message, requestId } = todo[i++];
        const run = () => handlerOf(event)!(message, trx, hooks);
        await (requestId ? runWithContext({ requestId }, run) : run());
      }
    }
  });
  for (const { event, fn } of committed) {
    try {
      fn();
    } catch (err) {
      handling.logger.error({ event, err: errorText(err) }, 'after-commit hook failed');
    }
  }
  return fresh;
}

function errorText(err: unknown): string {
  return String(err instanceof Error ? err.message : err).slice(0, 1_000);
}
