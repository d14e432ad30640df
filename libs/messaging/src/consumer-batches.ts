import { randomUUID } from 'node:crypto';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Kysely } from 'kysely';
import { eventMessageSchema, type EventMessage } from '@platform/contracts';
import { REQUEST_ID_HEADER, type Context, type Logger, type Tracer } from '@platform/observability';
import { consumerSpans, publishedContext } from './consumer-spans';
import { errorText } from './error-text';
import { checkPayload, handleEventBatch, type EventMessageHandling } from './event-handling';
import { ack, forward, settle } from './forwarding';
import { failureHeaders, failuresSoFar, invalidHeaders, routeFailure, type RetryPolicy } from './retry-routing';

/** A checked message waiting for its batch. */
interface Received {
  ch: ConfirmChannel;
  msg: ConsumeMessage;
  message: EventMessage;
  requestId: string;
  /** Handler failures so far (the retry header). */
  failures: number;
  /** The context the message was published in (its traceparent header). */
  published: Context;
}

export interface MessageBatchesOptions<DB> {
  db: Kysely<DB>;
  handling: EventMessageHandling<DB>;
  /** Most messages handled in one transaction. */
  maxBatch: number;
  policy: RetryPolicy;
  confirmTimeoutMs: number;
  log: Logger;
  /** Each message handled in a consumer span (see consumer-spans.ts); none when tracing is off. */
  tracer?: Tracer;
}

export interface MessageBatches {
  /** Takes a delivery: checks it, then it joins the next batch (or is parked at once if invalid). */
  receive(ch: ConfirmChannel, msg: ConsumeMessage): void;
  /** Resolves once every delivery received so far is settled. */
  settled(): Promise<void>;
}

/**
 * Batches deliveries: messages that arrive while a batch runs form the next one, each batch is
 * one transaction, and a batch that fails is handled again one message at a time, so one
 * message's failure neither holds back the others nor costs them an attempt.
 */
export function messageBatches<DB>(o: MessageBatchesOptions<DB>): MessageBatches {
  const inflight = new Set<Promise<void>>();
  const waiting: Received[] = [];
  let draining = false;
  const forwardTo = (r: Pick<Received, 'ch' | 'msg'>, queue: string, headers: Record<string, unknown>) =>
    settle(r.ch, r.msg, () => forward(r.ch, queue, r.msg, headers, o.confirmTimeoutMs), o.log);

  function track(work: Promise<void>) {
    const tracked = work.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  }

  async function receive(ch: ConfirmChannel, msg: ConsumeMessage) {
    const checked = checkDelivery(msg);
    if ('invalid' in checked) return parkInvalid({ ch, msg }, checked.invalid);
    waiting.push({ ch, msg, ...checked });
    if (draining) return;
    draining = true;
    // After the deliveries already read from the socket, so they join the first batch.
    track(new Promise<void>((resolve) => setImmediate(resolve)).then(drain).finally(() => (draining = false)));
  }

  function parkInvalid(r: Pick<Received, 'ch' | 'msg'>, err: unknown) {
    o.log.warn({ messageId: r.msg.properties.messageId, err: errorText(err).slice(0, 500) }, 'invalid message parked');
    return forwardTo(r, o.policy.parkedQueue, invalidHeaders(err));
  }

  async function drain() {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, o.maxBatch);
      if (batch.length > 1 && (await handleTogether(batch))) continue;
      for (const r of batch) await handleOne(r);
    }
  }

  async function handleTogether(batch: Received[]): Promise<boolean> {
    try {
      await handleTraced(o, batch);
      for (const r of batch) ack(r.ch, r.msg);
      return true;
    } catch (err) {
      o.log.warn({ err: errorText(err), messages: batch.length }, 'batch failed; handling its messages one by one');
      return false;
    }
  }

  async function handleOne(r: Received) {
    try {
      await handleTraced(o, [r]);
      ack(r.ch, r.msg);
    } catch (err) {
      const route = routeFailure(o.policy, r.failures);
      const mlog = o.log.child({ messageId: r.message.id, event: r.message.payload.event });
      if (route.to === 'retry')
        mlog.warn(
          { err: errorText(err), attempt: route.attempt, retryQueue: route.queue },
          'handler failed; retrying later',
        );
      else mlog.error({ err: errorText(err), attempt: route.attempt }, 'handler failed; message parked');
      await forwardTo(r, route.queue, failureHeaders(route, err));
    }
  }

  return {
    receive: (ch, msg) => track(receive(ch, msg)),
    settled: async () => void (await Promise.allSettled([...inflight])),
  };
}

/** Runs the messages' handlers in one transaction, each message in its consumer span. */
async function handleTraced<DB>(o: MessageBatchesOptions<DB>, batch: Received[]): Promise<void> {
  const spans = consumerSpans(o.tracer, o.handling.queue, batch);
  try {
    await handleEventBatch(
      o.db,
      o.handling,
      batch.map((r, i) => ({ message: r.message, requestId: r.requestId, trace: spans.contexts[i] })),
      o.tracer,
    );
    spans.end();
  } catch (err) {
    spans.end(err);
    throw err;
  }
}

/** The delivery's event and what its headers carry, or why it is not a valid event message. */
function checkDelivery(msg: ConsumeMessage): Omit<Received, 'ch' | 'msg'> | { invalid: unknown } {
  const headers: Record<string, unknown> = msg.properties.headers ?? {};
  let message: EventMessage;
  try {
    message = eventMessageSchema.parse(JSON.parse(msg.content.toString('utf8')));
    checkPayload(message);
  } catch (err) {
    return { invalid: err };
  }
  const requestId =
    typeof headers[REQUEST_ID_HEADER] === 'string' ? (headers[REQUEST_ID_HEADER] as string) : randomUUID();
  return { message, requestId, failures: failuresSoFar(headers), published: publishedContext(headers) };
}
