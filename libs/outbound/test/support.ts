import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import tls from 'node:tls';
import { OutboundError, type Resolver } from '../src';

/**
 * Test-only self-signed certificate for `site.test` (valid until 2126), made with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 *  -subj /CN=site.test -addext subjectAltName=DNS:site.test ...`.
 */
export const siteCert = readFileSync(join(__dirname, 'fixtures/site.test.cert.pem'));
const siteKey = readFileSync(join(__dirname, 'fixtures/site.test.key.pem'));

/** A resolver answering these addresses for every name (`calls` counts the lookups). */
export function resolverTo(...addresses: string[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };
  return Object.assign(resolve, { calls });
}

/** The kind of the OutboundError a request rejects with (or a string saying what happened instead). */
export async function failure(request: Promise<unknown>): Promise<string> {
  try {
    await request;
  } catch (err) {
    return err instanceof OutboundError ? err.kind : `not an OutboundError: ${String(err)}`;
  }
  return 'no error';
}

/** The error itself, for its message. */
export async function error(request: Promise<unknown>): Promise<OutboundError> {
  try {
    await request;
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
  throw new Error('the request succeeded');
}

export { fenceNetwork } from '@platform/testing';

type Route = (req: IncomingMessage, res: ServerResponse, body: Buffer, events: EventEmitter) => void;

/**
 * Local sites on 127.0.0.1 (or ::1): `/echo` answers 201 with method, Host, headers and body as
 * JSON; `/redirect?status=302&to=...`; `/big?bytes=n`; `/endless` (streams until the client goes
 * away, then emits 'endless-closed'); `/never` (no answer; emits 'never'); `/stall` (headers, then nothing);
 * `/hangup` (closes the socket without answering). Counts connections.
 */
export interface LocalSite {
  port: number;
  connections: number;
  /** SNI server names seen (https only). */
  servernames: string[];
  events: EventEmitter;
  close(): Promise<void>;
}

const routes: Record<string, Route> = {
  '/echo': (req, res, body) => {
    res.writeHead(201, { 'content-type': 'application/json', 'x-site': 'echo' });
    res.end(
      JSON.stringify({ method: req.method, host: req.headers.host, headers: req.headers, body: body.toString() }),
    );
  },
  '/redirect': (req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    res.writeHead(Number(query.get('status') ?? 302), { location: query.get('to') ?? '/echo' }).end('moved');
  },
  '/big': (req, res) => {
    const bytes = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes') ?? 200_000);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(bytes, 'a'));
  },
  '/never': (_req, _res, _body, events) => void events.emit('never'),
  '/stall': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
  },
  '/hangup': (req) => req.socket.destroy(),
};

export async function startSite(options: { https?: boolean; host?: string } = {}): Promise<LocalSite> {
  const events = new EventEmitter();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/endless') return endless(res, events);
      const route = routes[path];
      if (route) return route(req, res, Buffer.concat(chunks), events);
      res.writeHead(404).end();
    });
  };
  const servernames: string[] = [];
  const server: Server = options.https
    ? createHttpsServer(
        {
          cert: siteCert,
          key: siteKey,
          SNICallback: (servername, done) => {
            servernames.push(servername);
            done(null, tls.createSecureContext({ cert: siteCert, key: siteKey }));
          },
        },
        handler,
      )
    : createServer(handler);
  const site = { port: 0, connections: 0, servernames, events, close: async () => undefined };
  server.on('connection', () => (site.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  site.port = (server.address() as AddressInfo).port;
  site.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return site;
}

function endless(res: ServerResponse, events: EventEmitter) {
  const chunk = Buffer.alloc(16 * 1024, 'z');
  res.on('close', () => events.emit('endless-closed'));
  res.writeHead(200, { 'content-type': 'text/plain' });
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

/** A TCP server on 127.0.0.1 that accepts and never says a word (a TLS handshake to it hangs). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
