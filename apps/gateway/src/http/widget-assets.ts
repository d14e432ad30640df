import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { errorObject } from '@platform/contracts';
import { sendError } from '@platform/http';

/** The placeholder in loader.js the gateway replaces with the bundle's hashed file name (agreed with apps/widget). */
export const BUNDLE_PLACEHOLDER = '__WIDGET_BUNDLE__';

/** The loader's URL changes never (it is in every snippet): a short cache, so a new bundle reaches sites within minutes. */
const LOADER_CACHE_CONTROL = 'public, max-age=300';
/** A bundle's name carries its content hash: cached for a year, never revalidated. */
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const LOADER_PATH = /^\/widget\/v1\/[^/]+\/loader\.js$/;
const ASSET_PATH = /^\/widget\/v1\/assets\/([^/]+)$/;

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
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
  const gz = gzipSync(body, { level: 9 });
  return {
    type,
    cacheControl,
    identity: { body, etag: etagOf(body, '') },
    gzip: { body: gz, etag: etagOf(body, '-gz') },
  };
}

/**
 * The widget's static files (built by apps/widget into WIDGET_DIST_DIR), read once at start and
 * kept in memory, plain and gzipped, each with its ETag. The loader gets the bundle's name from
 * manifest.json in place of BUNDLE_PLACEHOLDER. A folder that is missing or incomplete serves
 * nothing (404), so the gateway still starts without a widget build.
 */
export class WidgetAssets {
  private loader: StaticFile | undefined;
  private readonly assets = new Map<string, StaticFile>();

  constructor(dir: string) {
    const manifestFile = path.join(dir, 'manifest.json');
    const loaderFile = path.join(dir, 'loader.js');
    if (!existsSync(manifestFile) || !existsSync(loaderFile)) return;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { widget?: unknown };
    if (typeof manifest.widget !== 'string') throw new Error(`${manifestFile} names no widget bundle`);
    const loader = readFileSync(loaderFile, 'utf8').split(BUNDLE_PLACEHOLDER).join(manifest.widget);
    this.loader = staticFile(Buffer.from(loader), TYPES['.js'], LOADER_CACHE_CONTROL);
    for (const name of readdirSync(dir)) {
      const type = TYPES[path.extname(name)];
      if (!type || name === 'loader.js') continue;
      this.assets.set(name, staticFile(readFileSync(path.join(dir, name)), type, ASSET_CACHE_CONTROL));
    }
  }

  /** Whether the path is one of the static files' (the loader of any property, or an asset). */
  static isStaticPath(pathname: string): boolean {
    return LOADER_PATH.test(pathname) || ASSET_PATH.test(pathname);
  }

  /** Answers a static path: the file (gzipped when accepted), 304 for its ETag, 404, or 405 for other methods. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed: ['GET', 'HEAD'] }), {
        Allow: 'GET, HEAD',
      });
    }
    const asset = ASSET_PATH.exec(pathname);
    const file = asset ? this.assets.get(asset[1]) : this.loader;
    if (!file) return sendError(res, errorObject('ROUTE.NOT_FOUND'));
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const chosen = gzip ? file.gzip : file.identity;
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', file.cacheControl);
    res.setHeader('ETag', chosen.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Any site embeds the widget, including ones that isolate themselves (COEP).
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (ifNoneMatch(req, chosen.etag)) {
      res.statusCode = 304;
      return void res.end();
    }
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', chosen.body.length);
    res.statusCode = 200;
    res.end(req.method === 'HEAD' ? undefined : chosen.body);
  }
}

function ifNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });
}
