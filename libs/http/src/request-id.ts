import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '@platform/observability';

/** What a caller's request id may be: 1 to 128 letters, digits, _ . : or -, so it is safe in logs and headers. */
const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request's id, the one rule for every listener (gateway and services): the caller's
 * x-request-id when it is well-formed, else a new UUID; echoed on the answer.
 */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
