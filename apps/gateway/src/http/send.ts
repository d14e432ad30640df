import type { ServerResponse } from 'node:http';
import { errorObject, type ErrorObject } from '@platform/contracts';

/** The envelope answer, with the same header names, order and bytes as libs/http sendError on Express. */
export function sendErrorRaw(res: ServerResponse, error: ErrorObject, headers?: Record<string, string>) {
  if (res.headersSent) return;
  const body = JSON.stringify({ error });
  res.statusCode = error.status;
  if (headers) for (const name in headers) res.setHeader(name, headers[name]);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

interface BodyParserError {
  type?: string;
}

/** body-parser failures, mapped to the contract's codes as libs/http errorHandler does. */
export function bodyErrorObject(err: unknown): ErrorObject | undefined {
  switch ((err as BodyParserError | undefined)?.type) {
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
      return undefined;
  }
}
