import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { AppError, hasBody, isJsonContentType } from '@platform/http';

/** The declared Content-Length, when there is one and it is a plain number. */
const declaredLength = (req: IncomingMessage) => {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
};

/**
 * Reads a /portal request's raw body, forwarded untouched: undefined when it has none, 415 for a
 * type other than JSON. A declared Content-Length over the limit (encoded or not) is a 413 at once,
 * before any of the body is read, and the connection is closed rather than drained (body-parser
 * would wait for the whole body before answering). body-parser counts streamed bytes (413). How
 * long a body may take to arrive is bounded by the server's requestTimeout (BODY_TIMEOUT_MS).
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
    if ((declaredLength(req) ?? 0) > limitBytes) {
      res.setHeader('Connection', 'close');
      throw new AppError('REQUEST.TOO_LARGE');
    }
    return read(req, res);
  };
}
