import type { ServerResponse } from 'node:http';
import type { Logger } from '@platform/observability';
import type { StreamReply } from './handlers';

/** Resolves when the client has taken what was written (drain) or has gone (close). */
const drainedOrClosed = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/**
 * Writes a StreamReply: the first piece is read before anything is sent (so a source that fails
 * at once is answered as an error by the caller), then each piece is written only once the client
 * took the last (backpressure). A client that goes away stops the source (its `return` runs, e.g.
 * a query loop ends); a source that fails midway destroys the answer: an incomplete transfer.
 */
export async function sendStream(res: ServerResponse, reply: StreamReply, logger?: Logger): Promise<void> {
  const pieces = reply.source[Symbol.asyncIterator]();
  let next = await pieces.next();
  for (const name in reply.headers) res.setHeader(name, reply.headers[name]);
  res.statusCode = 200;
  try {
    while (!next.done) {
      if (res.destroyed) break;
      if (!res.write(next.value)) await drainedOrClosed(res);
      next = await pieces.next();
    }
    if (!res.destroyed) res.end();
  } catch (err) {
    logger?.error({ err }, 'a streamed answer failed midway: cut short');
    res.destroy(err as Error);
  } finally {
    if (!next.done) await pieces.return?.().catch(() => undefined);
  }
}
