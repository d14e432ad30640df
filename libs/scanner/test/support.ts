import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseConnectTo, type ConnectToRule, type Resolver, type ScanLimits } from '../src';

/**
 * Test-only self-signed certificate for the local sites below and the third-party hosts mapped to
 * them (valid until 2126), made with `openssl req -x509 -newkey ec -pkeyopt
 * ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=site.test -addext
 * subjectAltName=DNS:site.test,DNS:blog.site.test,...,DNS:static.hotjar.com` (every host below).
 */
export const sitesCert = readFileSync(join(__dirname, 'fixtures/sites.test.cert.pem'));
const sitesKey = readFileSync(join(__dirname, 'fixtures/sites.test.key.pem'));

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const html = (res: ServerResponse, body: string, headers: Record<string, string | string[]> = {}) =>
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers })
    .end(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`);
const js = (res: ServerResponse, body: string, headers: Record<string, string | string[]> = {}) =>
  res.writeHead(200, { 'content-type': 'text/javascript', ...headers }).end(body);
const redirect = (res: ServerResponse, to: string) => res.writeHead(302, { location: to }).end();

/** Pages /p1 ... /p20 of site.test, each linking to the next two. */
const numberedPage = (n: number) => `<h1>page ${n}</h1><a href="/p${n + 1}">next</a> <a href="/p${n + 2}">after</a>`;

/**
 * The local sites, by Host (every name is mapped to 127.0.0.1 by connect-to, nothing is resolved):
 * - site.test `/`: a server cookie (Set-Cookie), scripts from www.google-analytics.com,
 *   connect.facebook.net and itself (`/app.js` sets `_ga` with document.cookie and adds a Hotjar
 *   script), a YouTube iframe, a Vimeo iframe marked for consent (data-src), links to /p1, blog.site.test, other.test, a PDF, mailto:;
 * - connect.facebook.net's script answers with a third-party cookie (`fr` on .facebook.net);
 * - loop.test redirects forever; big.test answers 300 kB; bomb.test a 1 kB gzip of 4 MB;
 *   slow.test never answers; refused.test redirects to a name that resolves to 10.0.0.1,
 *   metadata.test to 169.254.169.254; plain.test only speaks http;
 * - spin.test's home page runs a script that never yields; spinlater.test links to such a page
 *   and to a calm one (their names are not in the certificate: both are read over http).
 */
const HOSTS: Record<string, Record<string, Handler>> = {
  'site.test': {
    '/': (_req, res) =>
      html(
        res,
        `<script src="https://www.google-analytics.com/analytics.js"></script>
         <script src="https://connect.facebook.net/en_US/fbevents.js"></script>
         <script src="/app.js"></script>
         <iframe src="https://www.youtube.com/embed/xyz"></iframe>
         <iframe data-category="marketing" data-src="https://player.vimeo.com/video/76979871"></iframe>
         <a href="/p1">one</a> <a href="https://blog.site.test/">blog</a> <a href="https://other.test/">elsewhere</a>
         <a href="/report.pdf">pdf</a> <a href="mailto:a@site.test">mail</a> <a href="#top">top</a>`,
        { 'set-cookie': ['session_id=abc; Path=/; HttpOnly', 'prefs=dark; Path=/; Max-Age=86400'] },
      ),
    '/app.js': (_req, res) =>
      js(
        res,
        `document.cookie = "_ga=GA1.1.123.456; path=/; max-age=63072000"; var s = document.createElement("script"); s.src = "https://static.hotjar.com/c/hotjar-1.js"; document.head.appendChild(s);` +
          // A WebSocket would bypass the route handler: the browser must not open it.
          `try { new WebSocket("wss://site.test/ws"); } catch (e) {}`,
      ),
    ...Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`/p${i + 1}`, ((_req, res) => html(res, numberedPage(i + 1))) as Handler]),
    ),
  },
  'blog.site.test': { '/': (_req, res) => html(res, '<h1>blog</h1><a href="https://site.test/p1">home</a>') },
  'other.test': { '/': (_req, res) => html(res, '<h1>not the site</h1><a href="/gone">gone</a>') },
  'www.google-analytics.com': { '/analytics.js': (_req, res) => js(res, 'window.ga = function () {};') },
  'connect.facebook.net': {
    '/en_US/fbevents.js': (_req, res) =>
      js(res, 'window.fbq = function () {};', {
        'set-cookie': 'fr=0abc; Domain=facebook.net; Path=/; Max-Age=7776000; Secure; SameSite=None',
      }),
  },
  'static.hotjar.com': { '/c/hotjar-1.js': (_req, res) => js(res, 'window.hj = function () {};') },
  'www.youtube.com': { '/embed/xyz': (_req, res) => html(res, '<p>video</p>') },
  'loop.test': { '/': (_req, res) => redirect(res, '/a'), '/a': (_req, res) => redirect(res, '/') },
  'big.test': { '/': (_req, res) => html(res, 'x'.repeat(300_000)) },
  'bomb.test': {
    '/': (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
        .end(gzipSync(Buffer.alloc(4_000_000, ' '))),
  },
  'slow.test': { '/': () => undefined },
  'refused.test': { '/': (_req, res) => redirect(res, 'http://intranet.corp.example/') },
  'metadata.test': { '/': (_req, res) => redirect(res, 'http://169.254.169.254/latest/meta-data/') },
  'away.test': {
    '/': (_req, res) => html(res, '<script>location.href = "https://other.test/";</script><p>leaving</p>'),
  },
  // A script that never yields: the renderer's main thread stays busy for good.
  'spin.test': { '/': (_req, res) => html(res, '<p>spinning</p><script>while (true) {}</script>') },
  'spinlater.test': {
    '/': (_req, res) => html(res, '<a href="/spin">spin</a> <a href="/calm">calm</a>'),
    '/spin': (_req, res) => html(res, '<script>while (true) {}</script>'),
    '/calm': (_req, res) => html(res, '<p>calm</p>'),
  },
  'plain.test': {
    '/': (_req, res) =>
      html(res, '<p>plain http</p><script src="https://www.google-analytics.com/analytics.js"></script>'),
  },
};

export interface LocalSites {
  /** curl --connect-to rules sending every test host to these servers (plain.test's and away.test's https to a closed port). */
  connectTo: ConnectToRule[];
  /** `scheme://host/path` of every request (and WebSocket upgrade) that reached a server, in order. */
  hits: string[];
  /** The User-Agent of every request, in order. */
  userAgents: string[];
  close(): Promise<void>;
}

export async function startSites(): Promise<LocalSites> {
  const hits: string[] = [];
  const userAgents: string[] = [];
  const handler = (scheme: string) => (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(`${scheme}://${host}${path}`);
    userAgents.push(req.headers['user-agent'] ?? '');
    const route = HOSTS[host]?.[path];
    if (route) return route(req, res);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
  };
  const http = createServer(handler('http'));
  const https = createHttpsServer({ cert: sitesCert, key: sitesKey }, handler('https'));
  for (const [scheme, server] of [
    ['ws', http],
    ['wss', https],
  ] as const) {
    server.on('upgrade', (req: IncomingMessage, socket: net.Socket) => {
      hits.push(`${scheme}://${(req.headers.host ?? '').replace(/:\d+$/, '')}${req.url}`);
      socket.destroy();
    });
  }
  const closed = await closedPort();
  const ports = await Promise.all([http, https].map((server) => listen(server)));
  const [httpPort, httpsPort] = ports;
  const thirdParties = ['www.google-analytics.com', 'connect.facebook.net', 'static.hotjar.com', 'www.youtube.com'];
  const connectTo = parseConnectTo(
    [
      `plain.test:443:127.0.0.1:${closed}`,
      `away.test:443:127.0.0.1:${closed}`,
      `*.test:443:127.0.0.1:${httpsPort}`,
      `*.test:80:127.0.0.1:${httpPort}`,
      ...thirdParties.map((h) => `${h}:443:127.0.0.1:${httpsPort}`),
    ].join(','),
  );
  return {
    connectTo,
    hits,
    userAgents,
    close: async () => {
      for (const server of [http, https]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server as unknown as Server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Answers 10.0.0.1 for intranet.corp.example; every other name fails, so no lookup leaves the process. */
export const testResolver: Resolver = async (hostname) => {
  if (hostname === 'intranet.corp.example') return [{ address: '10.0.0.1', family: 4 }];
  throw Object.assign(new Error(`${hostname} is not known in tests`), { code: 'ENOTFOUND' });
};

export const testLimits = (overrides: Partial<ScanLimits> = {}): ScanLimits => ({
  maxPages: 5,
  maxRedirects: 5,
  maxPageBytes: 200_000,
  pageTimeoutMs: 4_000,
  scanTimeoutMs: 30_000,
  ...overrides,
});

export { fenceNetwork } from '@platform/testing';
