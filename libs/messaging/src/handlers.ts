import type { Transaction } from 'kysely';
import type { EventMessage, EventName, MessageOf } from '@platform/contracts';
import {
  activeTraceparent,
  inContext,
  inSpan,
  linkTo,
  runWithContext,
  SpanKind,
  type Context,
  type Link,
  type Tracer,
} from '@platform/observability';

/** What a handler may do beside its transaction. */
export interface HandlerHooks {
  /** Runs once the handler's transaction has committed, before the message is acked (e.g. hand new work to an in-process worker). */
  afterCommit(fn: () => void): void;
}

/** Typed handlers by event name; each runs inside the transaction that records the message id. */
export type EventHandlers<DB> = {
  [N in EventName]?: (message: MessageOf<N>, trx: Transaction<DB>, hooks: HandlerHooks) => Promise<void>;
};
type AnyHandler<DB> = (message: EventMessage, trx: Transaction<DB>, hooks: HandlerHooks) => Promise<void>;

/** What a batch handler may do beside its transaction. */
export interface BatchHandlerHooks extends HandlerHooks {
  /** The request id a message carried (for the events the handler writes). */
  requestIdOf(message: EventMessage): string | undefined;
  /** The traceparent of a message's consumer span (e.g. to store with work it leads to); null when tracing is off. */
  traceparentOf(message: EventMessage): string | null;
}

/**
 * Handlers of many messages of one event at once, by event name: consecutive fresh messages of
 * that event in a batch, in order, in the batch's transaction (e.g. one insert for 50 rows
 * instead of 50). An event with a batch handler needs no single-message handler. One function
 * named for several events takes their consecutive messages together, whatever their order (for
 * events one write commits side by side, such as a create's domain.created and domain.changed).
 */
export type BatchEventHandlers<DB> = {
  [N in EventName]?: (messages: MessageOf<N>[], trx: Transaction<DB>, hooks: BatchHandlerHooks) => Promise<void>;
};
type AnyBatchHandler<DB> = (messages: EventMessage[], trx: Transaction<DB>, hooks: BatchHandlerHooks) => Promise<void>;

/** The three handler styles a consumer takes; an event goes to the first that names it. */
export interface HandlerSet<DB> {
  /**
   * Handlers by event name, with the payload typed and checked against the event registry
   * (a payload that fails its schema is parked at once, never retried).
   */
  handlers?: EventHandlers<DB>;
  /** Handlers of several messages of one event at once; they take precedence over `handlers`. */
  batchHandlers?: BatchEventHandlers<DB>;
  /** For every other message (e.g. all public events); registered events are checked the same way. */
  handler?: AnyHandler<DB>;
}

/** A checked message and the request id it carried. */
export interface Handled {
  message: EventMessage;
  requestId?: string;
  /** The message's consumer span (see consumer-spans.ts), active while its handler runs. */
  trace?: Context;
}

/** An after-commit hook and the event whose handler registered it. */
export interface CommitHook {
  event: string;
  fn: () => void;
}

// Own keys only: an event named like an Object.prototype member is not a handler.
const own = <T>(map: Record<string, T | undefined> | undefined, name: string) =>
  map && Object.hasOwn(map, name) ? map[name] : undefined;

const batchHandlerOf = <DB>(set: HandlerSet<DB>, event: string) =>
  own(set.batchHandlers as Record<string, AnyBatchHandler<DB> | undefined> | undefined, event);
const handlerOf = <DB>(set: HandlerSet<DB>, event: string) =>
  own(set.handlers as Record<string, AnyHandler<DB> | undefined> | undefined, event) ?? set.handler;

/** Whether some handler takes the event (a consumer bound by a pattern may receive events it does not handle). */
export const takes = <DB>(set: HandlerSet<DB>, event: string): boolean =>
  Boolean(batchHandlerOf(set, event) ?? handlerOf(set, event));

/** A run of messages one handler call takes: a batch handler's consecutive messages of its events, or one message. */
export interface HandlerRun<T> {
  /** The first message's event. */
  event: string;
  items: T[];
  batched: boolean;
}

/**
 * Cuts messages, in order, into handler calls: consecutive messages whose events have the same
 * batch handler go together.
 */
export function handlerRuns<T extends Handled>(
  todo: T[],
  batchHandlerOfEvent: (event: string) => unknown,
): HandlerRun<T>[] {
  const runs: (HandlerRun<T> & { handler: unknown })[] = [];
  for (const item of todo) {
    const event = item.message.payload.event;
    const handler = batchHandlerOfEvent(event);
    const last = runs.at(-1);
    if (handler !== undefined && last?.handler === handler) last.items.push(item);
    else runs.push({ event, items: [item], batched: handler !== undefined, handler });
  }
  return runs.map(({ event, items, batched }) => ({ event, items, batched }));
}

/** Where runHandlers runs: the transaction, and what the batch around the handlers keeps. */
export interface HandlerScope<DB> {
  trx: Transaction<DB>;
  /** Hooks the handlers register, to run once the transaction commits. */
  committed: CommitHook[];
  requestIdOf(message: EventMessage): string | undefined;
  traceOf(message: EventMessage): Context | undefined;
  tracer?: Tracer;
}

/**
 * Runs fresh messages through their handlers in order: a run of one event through its batch
 * handler, any other message through its handler in its own request context and consumer span.
 */
export async function runHandlers<DB>(scope: HandlerScope<DB>, set: HandlerSet<DB>, todo: Handled[]): Promise<void> {
  const { trx, committed, requestIdOf, traceOf } = scope;
  const traceparentOf = (m: EventMessage) => {
    const ctx = traceOf(m);
    return ctx ? activeTraceparent(ctx) : activeTraceparent();
  };
  for (const { event, items, batched } of handlerRuns(todo, (name) => batchHandlerOf(set, name))) {
    const hooks = { afterCommit: (fn: () => void) => committed.push({ event, fn }), requestIdOf, traceparentOf };
    if (batched) {
      const messages = items.map((b) => b.message);
      await inBatchContext(scope.tracer, event, items, () => batchHandlerOf(set, event)!(messages, trx, hooks));
      continue;
    }
    const [{ message, requestId, trace }] = items;
    const handle = () => handlerOf(set, event)!(message, trx, hooks);
    const run = trace ? () => inContext(trace, handle) : handle;
    await (requestId ? runWithContext({ requestId }, run) : run());
  }
}

/**
 * A batch handler's active context: its one message's consumer span, or for several a span
 * under the first message's, linked to every other's (one handler call cannot have many parents).
 */
function inBatchContext(
  tracer: Tracer | undefined,
  event: string,
  items: Handled[],
  run: () => Promise<void>,
): Promise<void> {
  const [first] = items;
  if (!first.trace) return run();
  if (items.length === 1 || !tracer) return inContext(first.trace, run);
  const links = items
    .slice(1)
    .flatMap((b) => (b.trace ? [linkTo(b.trace)] : []))
    .filter((l): l is Link => !!l);
  const spec = {
    name: `${event} process batch`,
    kind: SpanKind.INTERNAL,
    parent: first.trace,
    links,
    attributes: { 'messaging.batch.message_count': items.length },
  };
  return inSpan(tracer, spec, run);
}
