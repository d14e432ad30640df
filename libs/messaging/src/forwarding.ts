import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { Logger } from '@platform/observability';
import { withTimeout } from './connection';
import { errorText } from './error-text';

/** Acks a consumed message, whether or not its channel is still open. */
export function ack(ch: ConfirmChannel, msg: ConsumeMessage) {
  try {
    ch.ack(msg);
  } catch {
    // Channel gone after commit: the redelivery is recognised as a duplicate.
  }
}

/** Moves the message on (confirmed), then acks it; if that fails it is requeued by the broker. */
export async function settle(ch: ConfirmChannel, msg: ConsumeMessage, forward: () => Promise<void>, log: Logger) {
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

/** Sends a copy of the message (same id and content, its headers plus `extra`) to a queue and waits for the broker's confirm. */
export function forward(
  ch: ConfirmChannel,
  target: string,
  msg: ConsumeMessage,
  extra: Record<string, unknown>,
  confirmTimeoutMs: number,
): Promise<void> {
  const props: Options.Publish = {
    persistent: true,
    contentType: msg.properties.contentType,
    messageId: msg.properties.messageId,
    headers: { ...(msg.properties.headers ?? {}), ...extra },
  };
  const confirmed = new Promise<void>((resolve, reject) => {
    ch.sendToQueue(target, msg.content, props, (err: unknown) =>
      err ? reject(new Error(`broker nacked forward to ${target}`)) : resolve(),
    );
  });
  return withTimeout(confirmed, confirmTimeoutMs, `no confirm forwarding to ${target} within ${confirmTimeoutMs} ms`);
}
