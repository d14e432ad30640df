import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import * as statics from './static-assets';
import {
  CONFIRM_PAGE_HEADERS,
  CONFIRM_PAGE_HTML,
  CONFIRM_PAGE_PATH,
  ONBOARDING_SCRIPT_PATH,
} from '../onboarding/confirm-page';
import {
  REQUEST_CONFIRM_HEADERS,
  REQUEST_CONFIRM_PAGE_HTML,
  REQUEST_CONFIRM_PAGE_PATH,
  REQUEST_CONFIRM_SCRIPT,
  REQUEST_CONFIRM_SCRIPT_PATH,
} from '../data-requests/request-confirm-page';

/** The placeholder in loader.js the gateway replaces with the bundle's hashed file name (agreed with apps/widget). */
export const BUNDLE_PLACEHOLDER = '__WIDGET_BUNDLE__';

/** The loader's URL changes never (it is in every snippet): a short cache, so a new bundle reaches sites within minutes. */
const LOADER_CACHE_CONTROL = 'public, max-age=300';

const LOADER_PATH = /^\/widget\/v1\/[^/]+\/loader\.js$/;
const ASSET_PATH = /^\/widget\/v1\/assets\/([^/]+)$/;

/** Any site embeds the widget, including ones that isolate themselves (COEP). */
const WIDGET_HEADERS = { 'Cross-Origin-Resource-Policy': 'cross-origin' };

/**
 * The widget's static files (built by apps/widget into WIDGET_DIST_DIR), read once at start and
 * kept in memory (static-assets.ts). The loader gets the bundle's name from manifest.json in place
 * of BUNDLE_PLACEHOLDER; the bundle's files are IMMUTABLE. A folder that is missing or incomplete
 * serves nothing (404), so the gateway still starts without a widget build.
 */
export class WidgetAssets {
  private readonly loader: statics.StaticFile | undefined;
  private readonly assets: Map<string, statics.StaticFile> = new Map();
  /** The onboarding widgets' scripts (onboarding/<name>.js), stable names like the loader's. */
  private readonly onboarding: Map<string, statics.StaticFile> = new Map();
  private readonly confirmPage = statics.staticFile(
    Buffer.from(CONFIRM_PAGE_HTML),
    statics.CONTENT_TYPES.html,
    LOADER_CACHE_CONTROL,
  );
  /** A data subject request's confirmation page and its script (data-requests/request-confirm-page.ts). */
  private readonly requestPages = new Map([
    [
      REQUEST_CONFIRM_PAGE_PATH,
      statics.staticFile(Buffer.from(REQUEST_CONFIRM_PAGE_HTML), statics.CONTENT_TYPES.html, LOADER_CACHE_CONTROL),
    ],
    [
      REQUEST_CONFIRM_SCRIPT_PATH,
      statics.staticFile(Buffer.from(REQUEST_CONFIRM_SCRIPT), statics.CONTENT_TYPES.js, LOADER_CACHE_CONTROL),
    ],
  ]);

  constructor(dir: string) {
    const manifestFile = path.join(dir, 'manifest.json');
    const loaderFile = path.join(dir, 'loader.js');
    if (!existsSync(manifestFile) || !existsSync(loaderFile)) return;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { widget?: unknown };
    if (typeof manifest.widget !== 'string') throw new Error(`${manifestFile} names no widget bundle`);
    const loader = readFileSync(loaderFile, 'utf8').split(BUNDLE_PLACEHOLDER).join(manifest.widget);
    this.loader = statics.staticFile(Buffer.from(loader), statics.CONTENT_TYPES.js, LOADER_CACHE_CONTROL);
    this.assets = statics.readStaticFiles(dir, statics.IMMUTABLE, (name) => name === 'loader.js');
    this.onboarding = statics.readStaticFiles(path.join(dir, 'onboarding'), LOADER_CACHE_CONTROL);
  }

  /** Whether the path is one of the static files' (the loader of any property, or an asset). */
  static isStaticPath(pathname: string): boolean {
    return (
      LOADER_PATH.test(pathname) ||
      ASSET_PATH.test(pathname) ||
      ONBOARDING_SCRIPT_PATH.test(pathname) ||
      pathname === CONFIRM_PAGE_PATH ||
      pathname === REQUEST_CONFIRM_PAGE_PATH ||
      pathname === REQUEST_CONFIRM_SCRIPT_PATH
    );
  }

  /** Answers a static path: the file (gzipped when accepted), 304 for its ETag, 404, or 405 for other methods. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (!statics.readsOnly(req, res)) return;
    if (pathname === CONFIRM_PAGE_PATH) return statics.sendStatic(req, res, this.confirmPage, CONFIRM_PAGE_HEADERS);
    const requestPage = this.requestPages.get(pathname);
    if (requestPage) return statics.sendStatic(req, res, requestPage, REQUEST_CONFIRM_HEADERS);
    const script = ONBOARDING_SCRIPT_PATH.exec(pathname);
    if (script) return statics.sendStatic(req, res, this.onboarding.get(`${script[1]}.js`), WIDGET_HEADERS);
    const asset = ASSET_PATH.exec(pathname);
    statics.sendStatic(req, res, asset ? this.assets.get(asset[1]) : this.loader, WIDGET_HEADERS);
  }
}
