import express, { type RequestHandler } from 'express';
import { errorObject } from '@platform/contracts';
import { runWithContext } from '@platform/observability';
import { sendError } from './errors';
import { requestIdOf } from './request-id';

/** Carries the caller's request id (or a new one, see requestIdOf) through logs, responses and onward calls. */
export const requestId: RequestHandler = (req, res, next) => {
  const id = requestIdOf(req, res);
  res.locals.requestId = id;
  runWithContext({ requestId: id }, next);
};

export const hasBody = (headers: Record<string, string | string[] | undefined>) =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

export const isJsonContentType = (value: string | undefined) =>
  value !== undefined && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(value.trim());

/** JSON bodies only (415 otherwise), with a size limit (413) and malformed JSON as 400. */
export function jsonBody(limit = '1mb'): RequestHandler[] {
  return [
    (req, res, next) => {
      if (hasBody(req.headers) && !isJsonContentType(req.header('content-type'))) {
        return sendError(res, errorObject('REQUEST.UNSUPPORTED_MEDIA_TYPE'));
      }
      next();
    },
    express.json({ limit, strict: false, type: () => true }),
  ];
}
