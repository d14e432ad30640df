import { randomUUID } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { errorObject } from '@platform/contracts';
import { REQUEST_ID_HEADER, runWithContext } from '@platform/observability';
import { sendError } from './errors';

const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Carries the caller's request id (or a new one) through logs, responses and onward calls. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.header(REQUEST_ID_HEADER);
  const id = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader(REQUEST_ID_HEADER, id);
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
