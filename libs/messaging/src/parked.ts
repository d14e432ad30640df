import type { Logger } from '@platform/observability';
import { closeQuietly, withTimeout, type AmqpConnection } from './connection';
import { ATTEMPT_HEADER, LAST_ERROR_HEADER, PARKED_REASON_HEADER } from './retry-routing';
import { consumerQueueNames } from './topology';

export interface ReplayParkedOptions {
  amqp: AmqpConnection;
  /** The consumer's work queue; messages move from `<queue>.parked` back to it. */
  queue: string;
  logger: Logger;
  /** At most this many messages (default: all that are there now). */
  limit?: number;
}

/**
 * Operator action: moves parked messages back to the work queue with a fresh attempt count.
 * Each message is re-sent (confirmed) before it is acked in the parking queue, so a failure
 * midway at worst duplicates one message, which the idempotent consumer absorbs.
 */
export async function replayParked(options: ReplayParkedOptions): Promise<number> {
  const names = consumerQueueNames(options.queue, 0);
  const log = options.logger.child({ component: 'replay-parked', queue: options.queue });
  const ch = await options.amqp.createConfirmChannel();
  try {
    const { messageCount } = await ch.checkQueue(names.parked);
    const limit = Math.min(options.limit ?? messageCount, messageCount);
    let moved = 0;
    while (moved < limit) {
      const msg = await ch.get(names.parked);
      if (!msg) break;
      const headers = { ...(msg.properties.headers ?? {}) };
      delete headers[ATTEMPT_HEADER];
      delete headers[PARKED_REASON_HEADER];
      delete headers[LAST_ERROR_HEADER];
      const sent = new Promise<void>((resolve, reject) => {
        ch.sendToQueue(
          names.work,
          msg.content,
          { persistent: true, contentType: msg.properties.contentType, messageId: msg.properties.messageId, headers },
          (err: unknown) => (err ? reject(new Error('broker nacked replayed message')) : resolve()),
        );
      });
      await withTimeout(sent, 5_000, 'no confirm for replayed message');
      ch.ack(msg);
      moved += 1;
    }
    log.info({ moved }, 'parked messages replayed');
    return moved;
  } finally {
    await closeQuietly(ch);
  }
}

export interface ParkedMessage {
  messageId: string | undefined;
  event: string | undefined;
  reason: string | undefined;
  attempts: number | undefined;
  lastError: string | undefined;
}

/**
 * Operator view of `<queue>.parked`: the first `limit` messages, read and put back (nacked with
 * requeue) so nothing is lost; they stay parked until replayed.
 */
export async function listParked(options: {
  amqp: AmqpConnection;
  queue: string;
  limit?: number;
}): Promise<{ total: number; messages: ParkedMessage[] }> {
  const names = consumerQueueNames(options.queue, 0);
  const ch = await options.amqp.createConfirmChannel();
  try {
    const { messageCount } = await ch.checkQueue(names.parked);
    const taken = [];
    const messages: ParkedMessage[] = [];
    while (messages.length < Math.min(options.limit ?? 50, messageCount)) {
      const msg = await ch.get(names.parked);
      if (!msg) break;
      taken.push(msg);
      const headers = msg.properties.headers ?? {};
      let event: string | undefined;
      try {
        event = (JSON.parse(msg.content.toString('utf8')) as { payload?: { event?: string } }).payload?.event;
      } catch {
        event = undefined;
      }
      const text = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
      messages.push({
        messageId: text(msg.properties.messageId),
        event,
        reason: text(headers[PARKED_REASON_HEADER]),
        attempts: headers[ATTEMPT_HEADER] === undefined ? undefined : Number(headers[ATTEMPT_HEADER]),
        lastError: text(headers[LAST_ERROR_HEADER]),
      });
    }
    for (const msg of taken) ch.nack(msg, false, true);
    return { total: messageCount, messages };
  } finally {
    await closeQuietly(ch);
  }
}
