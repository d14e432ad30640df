import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

export type { Logger };

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with a request context, so every log line inside carries the request id. */
export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** Paths whose values must never reach a log line. */
export const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'headers.authorization',
  'key',
  '*.key',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'token',
  '*.token',
];

export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    mixin() {
      const ctx = storage.getStore();
      return ctx ? { requestId: ctx.requestId } : {};
    },
  });
}
