import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { errorObject, type ErrorCode, type ErrorObject } from '@platform/contracts';
import type { Logger } from '@platform/observability';

/** A typed failure with the contract's code; data must be safe to show the partner. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly data?: Record<string, unknown>,
    /** Sent with the envelope, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? code);
    this.name = 'AppError';
  }

  toErrorObject(): ErrorObject {
    return errorObject(this.code, this.message === this.code ? undefined : this.message, this.data);
  }
}

/** The headers a thrown AppError asks to be sent with its envelope (none for anything else). */
export const errorHeadersOf = (err: unknown): Record<string, string> => (err instanceof AppError ? err.headers : {});

export const notFound = (what = 'resource') => new AppError('RESOURCE.NOT_FOUND', `The ${what} does not exist.`);

export function issuesOf(error: z.ZodError, prefix: (string | number)[] = []) {
  return error.issues.map((i) => ({ path: [...prefix, ...i.path.map(String)].join('.'), message: i.message }));
}

export function validationError(issues: { path: string; message: string }[]) {
  return new AppError('VALIDATION.INVALID', 'The request data is invalid.', { issues });
}

/** Writes the envelope; the same bytes on Express and on plain node:http responses. */
export function sendError(res: ServerResponse, error: ErrorObject, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const body = JSON.stringify({ error });
  res.statusCode = error.status;
  for (const name in headers) res.setHeader(name, headers[name]);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

interface BodyParserError {
  type?: string;
  status?: number;
}

/** body-parser failures carry a type; map each to the contract's code. */
function fromBodyParser(err: BodyParserError): ErrorObject | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return errorObject('VALIDATION.MALFORMED_JSON');
    case 'entity.too.large':
      return errorObject('REQUEST.TOO_LARGE');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return errorObject('REQUEST.UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding or charset.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return errorObject('VALIDATION.MALFORMED_JSON', 'The request body could not be read.');
    default:
      // A body that fails to inflate (broken gzip/deflate/br for its Content-Encoding) carries only its status.
      return err.status === 400
        ? errorObject('VALIDATION.MALFORMED_JSON', 'The request body could not be decoded with its Content-Encoding.')
        : undefined;
  }
}

/**
 * PostgreSQL's answers that mean "busy, try again", not a bug: serialization failure and deadlock
 * (class 40, when not rerun by inTransaction), lock_timeout (55P03), statement_timeout (57014),
 * too many connections (53300) and a server starting or stopping (57P03).
 */
const BUSY_SQLSTATES = new Set(['40001', '40P01', '55P03', '57014', '53300', '57P03']);

const isBusyDatabase = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  'severity' in err &&
  BUSY_SQLSTATES.has(String((err as { code?: unknown }).code));

/** The one place errors become HTTP answers: always the envelope, never a stack trace. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => sendError(res, errorObjectOf(err, logger), errorHeadersOf(err));
}

/** What errorHandler answers for any thrown value (unknown ones are logged, never shown). */
export function errorObjectOf(err: unknown, logger: Logger): ErrorObject {
  if (err instanceof AppError) return err.toErrorObject();
  if (err instanceof z.ZodError) return validationError(issuesOf(err)).toErrorObject();
  const fromParser = err && typeof err === 'object' ? fromBodyParser(err as BodyParserError) : undefined;
  if (fromParser) return fromParser;
  if (isBusyDatabase(err)) {
    logger.warn({ err }, 'database busy: answered 503');
    return errorObject('SERVICE.UNAVAILABLE', 'The service is busy; retry later.');
  }
  logger.error({ err }, 'unhandled error');
  return errorObject('SERVER.INTERNAL');
}

export const routeNotFound: RequestHandler = (_req, res) => sendError(res, errorObject('ROUTE.NOT_FOUND'));
