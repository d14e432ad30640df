import {
  contextWith,
  extractTrace,
  SpanKind,
  SpanStatusCode,
  startSpan,
  type Context,
  type Span,
  type Tracer,
} from '@platform/observability';
import type { EventMessage } from '@platform/contracts';

/** A delivery as the consumer spans see it: its event and the trace context its headers carried. */
export interface TracedDelivery {
  message: EventMessage;
  /** The publisher's context (traceparent header); the root context without one. */
  published: Context;
}

export interface ConsumerSpans {
  /** Each message's consumer span, as the context its handler runs in (undefined: tracing off). */
  contexts: (Context | undefined)[];
  /** Ends every span; a failure marks them all (the batch's transaction rolled back for all). */
  end(err?: unknown): void;
}

/**
 * One consumer span per message, each a child of the context its message was published in, so
 * the handler's work (and the events it writes) stays in the publisher's trace.
 */
export function consumerSpans(tracer: Tracer | undefined, queue: string, batch: TracedDelivery[]): ConsumerSpans {
  if (!tracer) return { contexts: batch.map(() => undefined), end: () => undefined };
  const spans: Span[] = batch.map(({ message, published }) =>
    startSpan(tracer, {
      name: `${message.payload.event} process`,
      kind: SpanKind.CONSUMER,
      parent: published,
      attributes: {
        'messaging.system': 'rabbitmq',
        'messaging.operation.type': 'process',
        'messaging.destination.name': queue,
        'messaging.message.id': message.id,
        'messaging.batch.message_count': batch.length,
      },
    }),
  );
  return {
    contexts: spans.map((span, i) => contextWith(span, batch[i].published)),
    end(err) {
      for (const span of spans) {
        if (err !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: String((err as Error)?.message) });
        span.end();
      }
    },
  };
}

/** The context a delivery's headers carry (its traceparent and tracestate). */
export const publishedContext = (headers: Record<string, unknown>): Context => extractTrace(headers);
