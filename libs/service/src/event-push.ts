import type { InternalCaller } from '@platform/auth';
import type { EventMessage, RouteSpec, eventMessageSchema } from '@platform/contracts';
import { afterCommit, type Kysely, type Transaction } from '@platform/db';
import { issuesOf, notFound, validationError } from '@platform/http';
import { handleEventMessage, InvalidEventMessageError, type EventMessageHandling } from '@platform/messaging';
import type { Logger } from '@platform/observability';
import type { ServiceCaller } from './service-caller';

/**
 * An /internal route that takes one committed event message and applies it in the receiving
 * service's consumer (e.g. merchants-svc's POST /internal/merchants/events).
 */
export type EventPushRoute = RouteSpec & { body: typeof eventMessageSchema };

export interface EventPushOptions {
  /** The receiving service's push route. */
  route: EventPushRoute;
  /** The client for the receiving service (made on first use). */
  target: () => ServiceCaller;
  /** The pushing service's name: whom the calls act as (its own key id for each partner). */
  from: string;
  /** The events the receiver projects; others are not sent. */
  takes: (message: EventMessage) => boolean;
  logger: Logger;
}

/**
 * Hands committed events to another service at once, so the partner's next read there shows the
 * change (read-your-writes); they reach it over RabbitMQ from the outbox as well, and its consumer
 * applies each message once, whichever copy comes first.
 */
export interface EventPush {
  /**
   * Sends the messages the receiver takes once the transaction `trx` belongs to has committed
   * (inside a request with an Idempotency-Key: the request's shared transaction), and never if it
   * rolls back: a receiver must not apply a version that may never exist. The transaction's runner
   * waits for the sends, so the partner's answer comes after them. Best effort: a send that fails
   * is logged, and the message follows over the bus.
   */
  // Both named: TypeScript infers DB from a Transaction<X> only against Transaction<DB>.
  onCommit<DB>(trx: Kysely<DB> | Transaction<DB>, messages: EventMessage[]): Promise<void>;
}

export function eventPush(options: EventPushOptions): EventPush {
  const log = options.logger.child({ pushTo: options.route.service });
  const send = async (messages: EventMessage[]) => {
    for (const message of messages) {
      try {
        const as = { partnerId: message.partner_id, keyId: `${options.from}:${message.partner_id}` };
        await options.target().call(options.route, { as, body: message } as never);
      } catch (err) {
        log.warn({ err: (err as Error).message, messageId: message.id }, 'event not pushed; it follows over the bus');
      }
    }
  };
  return {
    async onCommit(trx, messages) {
      const taken = messages.filter(options.takes);
      if (taken.length === 0) return;
      // No transaction (each statement committed on its own): the messages are committed already.
      if (!(await afterCommit(trx, () => send(taken)))) await send(taken);
    },
  };
}

/**
 * The handler of an EventPushRoute: the pushed message runs through the consumer's own handling
 * (same handlers, same idempotency scope), so the copy RabbitMQ delivers later is a duplicate.
 */
export function eventPushReceiver<DB>(db: Kysely<DB>, handling: EventMessageHandling<DB>) {
  return async ({ caller, body }: { caller: InternalCaller; body: EventMessage }) => {
    // A service acts for one partner: another partner's event is not its to hand over.
    if (body.partner_id !== caller.partnerId) throw notFound('event');
    try {
      const { fresh } = await handleEventMessage(db, handling, body);
      return { result: { applied: fresh } };
    } catch (err) {
      if (err instanceof InvalidEventMessageError) throw validationError(issuesOf(err.issues, ['body', 'payload']));
      throw err;
    }
  };
}
