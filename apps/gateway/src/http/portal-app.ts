import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import * as statics from './static-assets';

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

/** index.html changes with every build: always revalidated. Assets carry their content hash (IMMUTABLE). */
const INDEX_CACHE_CONTROL = 'no-cache';
const ASSET_PATH = /^\/app\/assets\/([^/]+)$/;

/** What the app's page (index.html) is served with besides the static file's own headers. */
const PAGE_HEADERS = {
  'Content-Security-Policy': PORTAL_CSP,
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * The portal web app (built by apps/portal into PORTAL_DIST_DIR), read once at start and kept in
 * memory: index.html for every /app/* path (the app routes in the browser) with a strict CSP, and
 * the hashed files under /app/assets/. A missing build serves 404s, so the gateway starts without it.
 */
export class PortalApp {
  private readonly index: statics.StaticFile | undefined;
  private readonly assets: Map<string, statics.StaticFile>;

  constructor(dir: string) {
    const indexFile = path.join(dir, 'index.html');
    const built = existsSync(indexFile);
    this.index = built
      ? statics.staticFile(readFileSync(indexFile), statics.CONTENT_TYPES.html, INDEX_CACHE_CONTROL)
      : undefined;
    this.assets = built ? statics.readStaticFiles(path.join(dir, 'assets'), statics.IMMUTABLE) : new Map();
  }

  /** Whether the path is the portal's: /app or anything under /app/. */
  static isAppPath(pathname: string): boolean {
    return pathname === PORTAL_BASE || pathname.startsWith(`${PORTAL_BASE}/`);
  }

  serve(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (!statics.readsOnly(req, res)) return;
    if (pathname === PORTAL_BASE) {
      res.writeHead(308, { Location: `${PORTAL_BASE}/` });
      return void res.end();
    }
    const asset = ASSET_PATH.exec(pathname);
    // A missing asset is a 404, never index.html: a stale chunk name must fail loudly, not parse HTML as JS.
    if (asset) return statics.sendStatic(req, res, this.assets.get(asset[1]));
    statics.sendStatic(req, res, this.index, PAGE_HEADERS);
  }
}
