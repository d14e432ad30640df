import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { errorObject } from '@platform/contracts';
import { sendError } from '@platform/http';

/** Where the portal lives (apps/portal is built with this base). */
export const PORTAL_BASE = '/app';

/**
 * The portal's policy: its own scripts only (no inline script, no eval), API calls to this origin,
 * no framing. Inline styles are allowed for the e-mail template preview (a sandboxed srcdoc frame,
 * which inherits this policy; e-mail HTML is styled inline). data: images: the TOTP QR code.
 */
export const PORTAL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** index.html changes with every build: always revalidated. Assets carry their content hash: cached for a year. */
const INDEX_CACHE_CONTROL = 'no-cache';
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const ASSET_PATH = /^\/app\/assets\/([^/]+)$/;

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

interface StaticFile {
  type: string;
  cacheControl: string;
  identity: { body: Buffer; etag: string };
  gzip: { body: Buffer; etag: string };
}

const etagOf = (body: Buffer, suffix: string) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${suffix}"`;

function staticFile(body: Buffer, type: string, cacheControl: string): StaticFile {
  return {
    type,
    cacheControl,
    identity: { body, etag: etagOf(body, '') },
    gzip: { body: gzipSync(body, { level: 9 }), etag: etagOf(body, '-gz') },
  };
}

/**
 * The portal web app (built by apps/portal into PORTAL_DIST_DIR), read once at start and kept in
 * memory: index.html for every /app/* path (the app routes in the browser) with a strict CSP, and
 * the hashed files under /app/assets/. A missing build serves 404s, so the gateway starts without it.
 */
export class PortalApp {
  private index: StaticFile | undefined;
  private readonly assets = new Map<string, StaticFile>();

  constructor(dir: string) {
    const indexFile = path.join(dir, 'index.html');
    if (!existsSync(indexFile)) return;
    this.index = staticFile(readFileSync(indexFile), 'text/html; charset=utf-8', INDEX_CACHE_CONTROL);
    const assetsDir = path.join(dir, 'assets');
    if (!existsSync(assetsDir)) return;
    for (const name of readdirSync(assetsDir)) {
      const type = TYPES[path.extname(name)];
      if (type) this.assets.set(name, staticFile(readFileSync(path.join(assetsDir, name)), type, ASSET_CACHE_CONTROL));
    }
  }

  /** Whether the path is the portal's: /app or anything under /app/. */
  static isAppPath(pathname: string): boolean {
    return pathname === PORTAL_BASE || pathname.startsWith(`${PORTAL_BASE}/`);
  }

  serve(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed: ['GET', 'HEAD'] }), {
        Allow: 'GET, HEAD',
      });
    }
    if (pathname === PORTAL_BASE) {
      res.writeHead(308, { Location: `${PORTAL_BASE}/` });
      return void res.end();
    }
    const asset = ASSET_PATH.exec(pathname);
    // A missing asset is a 404, never index.html: a stale chunk name must fail loudly, not parse HTML as JS.
    const file = asset ? this.assets.get(asset[1]) : this.index;
    if (!file) return sendError(res, errorObject('ROUTE.NOT_FOUND'));
    if (!asset) {
      res.setHeader('Content-Security-Policy', PORTAL_CSP);
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('X-Frame-Options', 'DENY');
    }
    send(req, res, file);
  }
}

function send(req: IncomingMessage, res: ServerResponse, file: StaticFile) {
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const chosen = gzip ? file.gzip : file.identity;
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', file.cacheControl);
  res.setHeader('ETag', chosen.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const tags = String(req.headers['if-none-match'] ?? '').split(',');
  if (tags.some((t) => t.trim().replace(/^W\//, '') === chosen.etag)) {
    res.statusCode = 304;
    return void res.end();
  }
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', chosen.body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : chosen.body);
}
