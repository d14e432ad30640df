import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  body: string;
  /** Date.now() when the request was complete. */
  receivedAt: number;
}

/** How to answer one request; undefined: 204. `delayMs` answers later; `hang` never answers. */
export interface WebhookAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  hang?: boolean;
}
/** `count`: how many requests this path had received before this one (0 for the first). */
export type WebhookResponder = (request: ReceivedWebhook, count: number) => WebhookAnswer | undefined;

export interface WebhookReceiver {
  url: string;
  /** Every request, in arrival order (unless started with keep: false). */
  received: ReceivedWebhook[];
  /** Answers requests to this path (exact, query excluded) with the responder from now on. */
  route(path: string, responder: WebhookResponder): void;
  close(): Promise<void>;
}

/**
 * A partner's webhook receiver on 127.0.0.1 (an ephemeral port): it keeps what it receives and
 * answers each path as told. Used by tests and the benchmark; handy by hand too.
 */
export async function startWebhookReceiver(
  options: { keep?: boolean; onRequest?: (request: ReceivedWebhook) => void; port?: number } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const routes = new Map<string, WebhookResponder>();
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const request: ReceivedWebhook = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      if (options.keep !== false) received.push(request);
      options.onRequest?.(request);
      const count = counts.get(path) ?? 0;
      counts.set(path, count + 1);
      const answer = routes.get(path)?.(request, count) ?? {};
      if (answer.hang) return;
      const send = () => {
        res.writeHead(answer.status ?? 204, answer.headers ?? {});
        res.end(answer.body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    route: (path, responder) => void routes.set(path, responder),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
