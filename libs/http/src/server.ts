import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Logger } from '@platform/observability';
import { answerClientErrors } from './client-errors';

/** Node's own HTTP/1 header limit, kept unless a request bound is shorter. */
const HEADERS_TIMEOUT_MS = 60_000;
/** Longer than a load balancer's idle time-out (60 s on most), so the balancer closes first and never reuses a closed connection. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** After a stop signal: past this, the process exits even if a connection or a cleanup still hangs. */
const FORCED_EXIT_MS = 10_000;

export interface HttpServerOptions {
  /**
   * How long a whole request (headers and body) may take to arrive: later, Node answers 408 and
   * closes the connection. Node checks pending requests every connectionsCheckingInterval (30 s
   * by default): a quarter of the bound, at most 1 s, keeps the cut-off close to the bound.
   */
  requestTimeoutMs?: number;
}

const requestBounds = (requestTimeoutMs: number): ServerOptions => ({
  requestTimeout: requestTimeoutMs,
  headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
  connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
});

/**
 * The one way a process makes its HTTP server (the gateway's and every service's, public and
 * admin): node:http, what the parser rejects answered in the contract's envelope
 * (answerClientErrors). Not yet listening: see listenServer.
 */
export function createHttpServer(listener: RequestListener, options: HttpServerOptions = {}): Server {
  const bounds = options.requestTimeoutMs === undefined ? {} : requestBounds(options.requestTimeoutMs);
  return answerClientErrors(createServer(bounds, listener));
}

/** Listens and resolves with the server once bound (port 0 = ephemeral, for tests). */
export function listenServer(server: Server, port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** Stops accepting, closes idle keep-alive connections at once, and resolves when the open requests have ended. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** The port a listening server is bound to (0 when it is not listening). */
export const serverPort = (server: Server) => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

/**
 * main.ts of a process: on SIGTERM or SIGINT runs stop (servers first, then what they used) and
 * exits 0; a second signal, or FORCED_EXIT_MS, forces exit 1. A failing stop is logged.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<unknown>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), FORCED_EXIT_MS).unref();
    void stop()
      .catch((err: unknown) => logger.error({ err }, 'stopping failed'))
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
