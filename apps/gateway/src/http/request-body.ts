import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { AppError, hasBody, isJsonContentType } from '@platform/http';

/**
 * Reads a /portal request's raw body, forwarded untouched: undefined when it has none, 415 for a
 * type other than JSON. body-parser rejects an oversized Content-Length up front and counts
 * streamed bytes (413).
 */
export function bodyReader(limitBytes: number) {
  const raw = express.raw({ type: () => true, limit: limitBytes });
  const read = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<Buffer | undefined>((resolve, reject) => {
      raw(req as express.Request, res as express.Response, (err?: unknown) => {
        if (err) return reject(err);
        const body = (req as express.Request).body as unknown;
        resolve(Buffer.isBuffer(body) && body.length > 0 ? body : undefined);
      });
    });
  return async (req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> => {
    if (!hasBody(req.headers)) return undefined;
    if (!isJsonContentType(req.headers['content-type'])) throw new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE');
    return read(req, res);
  };
}
