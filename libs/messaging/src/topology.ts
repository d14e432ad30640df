import { connect, type Channel } from 'amqplib';

/**
 * Broker topology, declared idempotently by whoever needs it first (publisher, consumer, probe).
 * All declarations must stay identical everywhere: RabbitMQ refuses (406) a re-declaration with
 * different arguments.
 */

/** Messages for events nobody subscribes to (yet) land here instead of being returned. */
export const unroutedExchangeName = (exchange: string) => `${exchange}.unrouted`;

/**
 * Bounded, so unrouted events cannot fill the broker; oldest are dropped first.
 *
 * The cap is the queue's only limit: below it, messages stay forever. A message TTL is NOT set
 * through the queue's arguments on purpose: RabbitMQ refuses (406 PRECONDITION_FAILED) to
 * re-declare an existing queue with different arguments, so on a running deployment every
 * publisher and consumer would fail to declare its topology until the queue was deleted (with its
 * messages). An operator gives it an age limit with a policy, which applies to the existing queue
 * at once and needs no redeploy. For the default exchange, 7 days:
 *
 *   rabbitmqctl set_policy --apply-to queues --priority 1 \
 *     events-unrouted-ttl '^partner\.events\.unrouted$' '{"message-ttl":604800000}'
 *
 * (use the `<EVENTS_EXCHANGE>.unrouted` name of each deployment; `rabbitmqctl list_queues name
 * messages policy` shows it applied). Good to know: a queue follows one policy, the matching one
 * with the highest priority, so if one already matches this queue, add "message-ttl" to its
 * definition instead, or use `rabbitmqctl set_operator_policy` with the same arguments, which
 * applies on top of it (the lower limit wins). On quorum queues (RabbitMQ 3.10+) the TTL counts
 * for messages that arrive after the policy is set; `rabbitmqctl purge_queue` clears older ones.
 */
const UNROUTED_MAX_LENGTH = 10_000;

/**
 * The event exchange: durable topic, with an alternate exchange. Why the AE: publishing with
 * `mandatory` turns "no queue bound for this routing key" into a basic.return. For a valid event
 * nobody listens to yet that is not an error, and retrying it forever would stall the relay. The
 * AE catches those messages in a bounded queue an operator can inspect, so a return only happens
 * when the topology is broken (AE deleted) and the publish is then failed and retried.
 */
function eventExchangeArguments(exchange: string) {
  return { 'alternate-exchange': unroutedExchangeName(exchange) };
}

export async function assertEventExchange(channel: Channel, exchange: string): Promise<void> {
  const unrouted = unroutedExchangeName(exchange);
  await channel.assertExchange(unrouted, 'fanout', { durable: true });
  await channel.assertQueue(unrouted, {
    durable: true,
    arguments: { 'x-queue-type': 'quorum', 'x-max-length': UNROUTED_MAX_LENGTH, 'x-overflow': 'drop-head' },
  });
  await channel.bindQueue(unrouted, unrouted, '');
  await channel.assertExchange(exchange, 'topic', { durable: true, arguments: eventExchangeArguments(exchange) });
}

/** Names of a consumer's queues, derived from its work queue name. */
export function consumerQueueNames(queue: string, retrySteps: number) {
  return {
    work: queue,
    parked: `${queue}.parked`,
    retry: Array.from({ length: retrySteps }, (_, i) => `${queue}.retry.${i + 1}`),
  };
}

export interface ConsumerTopology {
  exchange: string;
  queue: string;
  bindings: string[];
  retryDelaysMs: number[];
  /** Redeliveries (crash, channel loss) before the broker itself parks a poison message. */
  deliveryLimit: number;
}

/**
 * Work queue (quorum, delivery limit, DLX to the parking queue), one delay queue per retry step
 * (per-queue TTL, because per-message TTL only expires at the head of a queue; on expiry the
 * message dead-letters back to the work queue through the default exchange), and the parking queue.
 */
export async function assertConsumerTopology(channel: Channel, t: ConsumerTopology): Promise<void> {
  const names = consumerQueueNames(t.queue, t.retryDelaysMs.length);
  await assertEventExchange(channel, t.exchange);
  await channel.assertQueue(names.parked, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.assertQueue(names.work, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': t.deliveryLimit,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': names.parked,
    },
  });
  for (const [i, name] of names.retry.entries()) {
    await channel.assertQueue(name, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-message-ttl': t.retryDelaysMs[i],
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': names.work,
        // At-least-once dead-lettering so a delayed retry is not lost on its way back.
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
      },
    });
  }
  for (const key of t.bindings) await channel.bindQueue(names.work, t.exchange, key);
}

/**
 * Deletes what a test or a bench run declared on the broker, so runs leave nothing behind: queues first (their
 * bindings go with them), then exchanges. Each deletion runs on its own channel, so one the broker
 * refuses does not stop the others; absent objects are fine (RabbitMQ's deletes are idempotent).
 * Throws afterwards, naming what could not be deleted, so a leak does not go unnoticed.
 */
export async function deleteBrokerTopology(
  amqpUrl: string,
  what: { exchanges?: string[]; queues?: string[] },
): Promise<void> {
  const connection = await connect(amqpUrl);
  connection.on('error', () => undefined);
  const failed: string[] = [];
  const attempt = async (name: string, remove: (channel: Channel) => Promise<unknown>) => {
    try {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      await remove(channel);
      await channel.close();
    } catch (err) {
      failed.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  try {
    for (const queue of what.queues ?? []) await attempt(`queue ${queue}`, (ch) => ch.deleteQueue(queue));
    for (const exchange of what.exchanges ?? [])
      await attempt(`exchange ${exchange}`, (ch) => ch.deleteExchange(exchange));
  } finally {
    await connection.close().catch(() => undefined);
  }
  if (failed.length > 0) throw new Error(`could not delete from the broker: ${failed.join('; ')}`);
}

/**
 * Deletes an event exchange as libs/messaging's assertEventExchange declares it (the exchange,
 * its `<exchange>.unrouted` alternate exchange and queue) and the given queues (e.g. a consumer's
 * work, retry and parked queues): what a suite or a bench run that made its own exchange calls when it closes.
 */
export function deleteEventTopology(amqpUrl: string, exchange: string, queues: string[] = []): Promise<void> {
  const unrouted = `${exchange}.unrouted`;
  return deleteBrokerTopology(amqpUrl, { queues: [...queues, unrouted], exchanges: [exchange, unrouted] });
}
