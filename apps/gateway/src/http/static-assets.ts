import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { errorObject } from '@platform/contracts';
import { sendError } from '@platform/http';

/** A file whose name carries its content hash: cached for a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The Content-Types of the static files the gateway serves. */
export const CONTENT_TYPES = {
  html: 'text/html; charset=utf-8',
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  map: 'application/json; charset=utf-8',
} as const;

/**
 * The files of a build folder served, by extension; anything else is not. No HTML: a page is
 * served only as itself, with its own headers (the portal's CSP), never as an asset.
 */
const ASSET_TYPES: Record<string, string> = {
  '.js': CONTENT_TYPES.js,
  '.css': CONTENT_TYPES.css,
  '.svg': CONTENT_TYPES.svg,
  '.png': CONTENT_TYPES.png,
  '.woff2': CONTENT_TYPES.woff2,
  '.map': CONTENT_TYPES.map,
};

/** A file as served: kept in memory plain and gzipped (level 9, once), each with its ETag. */
export interface StaticFile {
  type: string;
  cacheControl: string;
  identity: { body: Buffer; etag: string };
  gzip: { body: Buffer; etag: string };
}

const etagOf = (body: Buffer, suffix: string) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${suffix}"`;

export function staticFile(body: Buffer, type: string, cacheControl: string): StaticFile {
  return {
    type,
    cacheControl,
    identity: { body, etag: etagOf(body, '') },
    gzip: { body: gzipSync(body, { level: 9 }), etag: etagOf(body, '-gz') },
  };
}

/** Every file of dir of an asset type (but the names skipped), by name; none when dir is missing. */
export function readStaticFiles(
  dir: string,
  cacheControl: string,
  skip: (name: string) => boolean = () => false,
): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir)) {
    const type = ASSET_TYPES[path.extname(name)];
    if (type && !skip(name)) files.set(name, staticFile(readFileSync(path.join(dir, name)), type, cacheControl));
  }
  return files;
}

/** Static paths answer GET and HEAD only: anything else is 405 with Allow (answered here, false returned). */
export function readsOnly(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed: ['GET', 'HEAD'] }), {
    Allow: 'GET, HEAD',
  });
  return false;
}

/** Whether If-None-Match names the ETag (or is `*`), weak or strong. */
function ifNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });
}

/**
 * Sends a static file, or 404 in the envelope when there is none: gzipped when the client
 * accepts it, 304 when it holds the ETag, with its type, caching, nosniff and the caller's own
 * headers (the portal page's CSP, the widget's cross-origin policy).
 */
export function sendStatic(
  req: IncomingMessage,
  res: ServerResponse,
  file: StaticFile | undefined,
  headers: Record<string, string> = {},
) {
  if (!file) return sendError(res, errorObject('ROUTE.NOT_FOUND'));
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const chosen = gzip ? file.gzip : file.identity;
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', file.cacheControl);
  res.setHeader('ETag', chosen.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const name in headers) res.setHeader(name, headers[name]);
  if (ifNoneMatch(req, chosen.etag)) {
    res.statusCode = 304;
    return void res.end();
  }
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', chosen.body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : chosen.body);
}
