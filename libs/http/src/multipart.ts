import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { UploadedFile } from '@platform/contracts';
import { AppError } from './errors';

const MULTIPART = /^multipart\/form-data\s*;/i;
/** The text fields beside the file are short (a mode, a flag): more is refused, not buffered. */
const FIELD_LIMITS = { fields: 20, fieldSize: 1024, parts: 25 };

/**
 * Reads a multipart/form-data body (RouteSpec.multipart) with busboy: its text fields, and the
 * file of `file` as an UploadedFile; 415 for another type, 413 when the file is over maxFileBytes
 * (nothing more of it is kept), 400 when the body is not well formed. Other file fields are drained.
 */
export function readMultipart(
  req: IncomingMessage,
  { file, maxFileBytes }: { file: string; maxFileBytes: number },
): Promise<Record<string, unknown>> {
  if (!MULTIPART.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(
      new AppError('REQUEST.UNSUPPORTED_MEDIA_TYPE', 'The request body must be multipart/form-data.'),
    );
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown> = {};
    let failed = false;
    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(err);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { ...FIELD_LIMITS, fileSize: maxFileBytes, files: 5 } });
    } catch {
      return reject(new AppError('REQUEST.MALFORMED', 'The multipart body has no boundary.'));
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new AppError('VALIDATION.INVALID', `The field ${name} is too long.`));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== file) return void stream.resume();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () =>
        fail(new AppError('REQUEST.TOO_LARGE', `The file in ${file} is larger than ${maxFileBytes} bytes.`)),
      );
      stream.on('close', () => {
        const upload: UploadedFile = {
          filename: info.filename ?? '',
          content_type: info.mimeType,
          data: Buffer.concat(chunks),
        };
        fields[name] = upload;
      });
    });
    parser.on('partsLimit', () => fail(new AppError('VALIDATION.INVALID', 'The form has too many parts.')));
    parser.on('fieldsLimit', () => fail(new AppError('VALIDATION.INVALID', 'The form has too many fields.')));
    parser.on('error', () => fail(new AppError('REQUEST.MALFORMED', 'The multipart body is not well formed.')));
    parser.on('close', () => {
      if (!failed) resolve(fields);
    });
    req.on('error', () => fail(new AppError('REQUEST.MALFORMED', 'The request body could not be read.')));
    req.pipe(parser);
  });
}
