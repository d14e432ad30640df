import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from './errors';
import { isJsonContentType } from './middleware';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
const unreadable = () => new AppError('VALIDATION.MALFORMED_JSON', 'The request body could not be read.');

/** Same bytes Express's res.json/sendError write: the JSON text with its charset and length. */
export function sendJson(res: ServerResponse, status: number, text: string) {
  if (res.headersSent) return;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** The JSON body rules of jsonBody(): 415 for other types/charsets/encodings, 413 over the limit, 400 malformed. */
export function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) return Promise.reject(new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE'));
  const charset = CHARSET.exec(type!)?.[1]?.toLowerCase() ?? 'utf-8';
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (charset !== 'utf-8' || encoding !== 'identity') {
    return Promise.reject(new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding or charset.'));
  }
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > limit) return Promise.reject(new AppError('REQUEST.TOO_LARGE'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (err: AppError) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) stop(new AppError('REQUEST.TOO_LARGE'));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      if (declared !== undefined && declared !== size) return reject(unreadable());
      const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
      if (text.length === 0) return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new AppError('VALIDATION.MALFORMED_JSON'));
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => stop(unreadable()));
  });
}
