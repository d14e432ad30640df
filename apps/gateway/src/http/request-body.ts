import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { RouteSpec } from '@platform/contracts';
import { AppError, hasBody, isJsonContentType } from '@platform/http';

/** The declared Content-Length, when there is one and it is a plain number. */
const declaredLength = (req: IncomingMessage) => {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
};

/** What a multipart form may add to its file's bytes (boundaries, part headers, its short fields). */
export const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

const isMultipart = (type: string | undefined) => type !== undefined && /^multipart\/form-data\s*;/i.test(type);

/**
 * Reads a /portal request's raw body, forwarded untouched: undefined when it has none, 415 for a
 * type other than JSON (a route that declares multipart, an upload, takes multipart/form-data
 * instead, up to its file's limit plus the form's envelope; the service reads the form). A declared Content-Length over the limit (encoded or not) is a 413 at once,
 * before any of the body is read, and the connection is closed rather than drained (body-parser
 * would wait for the whole body before answering). body-parser counts streamed bytes (413). How
 * long a body may take to arrive is bounded by the server's requestTimeout (BODY_TIMEOUT_MS).
 */
export function bodyReader(limitBytes: number) {
  const raw = express.raw({ type: () => true, limit: limitBytes });
  const read = (req: IncomingMessage, res: ServerResponse, parse: typeof raw) =>
    new Promise<Buffer | undefined>((resolve, reject) => {
      parse(req as express.Request, res as express.Response, (err?: unknown) => {
        if (err) return reject(err);
        const body = (req as express.Request).body as unknown;
        resolve(Buffer.isBuffer(body) && body.length > 0 ? body : undefined);
      });
    });
  const uploads = new Map<number, typeof raw>();
  const uploadReader = (fileBytes: number) => {
    let reader = uploads.get(fileBytes);
    if (!reader)
      uploads.set(fileBytes, (reader = express.raw({ type: () => true, limit: fileBytes + MULTIPART_ENVELOPE_BYTES })));
    return reader;
  };
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    spec?: Pick<RouteSpec, 'multipart'>,
  ): Promise<Buffer | undefined> => {
    if (!hasBody(req.headers)) return undefined;
    const upload = spec?.multipart;
    const type = req.headers['content-type'];
    if (upload ? !isMultipart(type) : !isJsonContentType(type)) throw new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE');
    const limit = upload ? upload.maxFileBytes + MULTIPART_ENVELOPE_BYTES : limitBytes;
    if ((declaredLength(req) ?? 0) > limit) {
      res.setHeader('Connection', 'close');
      throw new AppError('REQUEST.TOO_LARGE');
    }
    return read(req, res, upload ? uploadReader(upload.maxFileBytes) : raw);
  };
}
