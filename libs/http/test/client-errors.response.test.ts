import { connect, type Socket } from 'node:net';
import { createServer, type Server } from 'node:http';
import { createLogger } from '@platform/observability';
import { parseRawAnswer, rawHttp } from '@platform/testing';
import { answerClientErrors, createDispatcher, createHttpServer, listenServer, serverPort } from '../src';

const raw = rawHttp;

/** The promise, or a failure once ms pass without it settling. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const envelope = (code: string, status: number) => ({
  error: { code, ns: code.split('.')[0], status, message: expect.any(String) },
});

const silent = createLogger('test', 'silent');

describe('errors from the HTTP parser, on a service server (createHttpServer)', () => {
  let server: Server;
  let port: number;
  /** Lets the /slow route finish its answer. */
  let finishSlow: () => void = () => undefined;

  beforeAll(async () => {
    const listener = createDispatcher({
      logger: silent,
      routes: [],
      handlers: {},
      prefix: '/portal',
      authenticate: () => undefined,
      fallback: (req, res) => {
        if (req.url !== '/slow') return void res.writeHead(404).end();
        // Begins its answer at once and ends it when the test says so.
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10' });
        res.write('first');
        finishSlow = () => res.end('-last');
      },
    });
    server = await listenServer(createHttpServer(listener), 0);
    port = serverPort(server);
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('when the headers are over the limit, then a complete 431 REQUEST.HEADERS_TOO_LARGE in the envelope closes the connection', async () => {
    const res = await raw(port, `GET /portal/x HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(res.body.length),
      connection: 'close',
    });
    expect(JSON.parse(res.body)).toEqual(envelope('REQUEST.HEADERS_TOO_LARGE', 431));
  });

  it.each([
    ['a garbage request line', 'GARBAGE\r\n\r\n'],
    ['a header with an invalid character', 'GET /portal/x HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n'],
    ['a bad Content-Length', 'POST /portal/x HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n'],
  ])('when the request has %s, then 400 REQUEST.MALFORMED in the envelope', async (_what, request) => {
    const res = await raw(port, request);
    expect(res.status).toBe(400);
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(JSON.parse(res.body)).toEqual(envelope('REQUEST.MALFORMED', 400));
  });

  it('when a chunk extension is over the limit, then 413 REQUEST.TOO_LARGE in the envelope (the status Node gives it)', async () => {
    const res = await raw(
      port,
      `POST /portal/x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\nx\r\n0\r\n\r\n`,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(envelope('REQUEST.TOO_LARGE', 413));
  });

  it('when the client reads the answer but never closes, then the server closes the connection within seconds', async () => {
    const serverSide = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    socket.setEncoding('latin1');
    let data = '';
    socket.on('data', (chunk: string) => (data += chunk));
    const answered = new Promise<void>((resolve) => socket.on('end', resolve));
    socket.write('GARBAGE\r\n\r\n');
    const held = await serverSide;
    const serverClosed = new Promise<void>((resolve) => held.on('close', () => resolve()));
    try {
      await within(answered, 5_000, 'the answer');
      expect(parseRawAnswer(data).status).toBe(400);
      await within(serverClosed, 5_000, 'the server to close the connection');
    } finally {
      socket.destroy();
    }
  });

  it('when a malformed request follows one whose answer has begun, then nothing is written into that answer and the connection closes', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('latin1');
    let data = '';
    socket.on('data', (chunk: string) => (data += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /slow HTTP/1.1\r\nHost: a\r\n\r\n');
    socket.once('data', () => socket.write('GARBAGE\r\n\r\n'));
    await closed;
    finishSlow();
    expect(data).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nfirst$/);
  });
});

describe('errors from the HTTP parser: request timeouts', () => {
  it("when a request does not arrive in time, then the answer is Node's own 408 and the connection closes", async () => {
    const server = answerClientErrors(
      createServer({ requestTimeout: 200, connectionsCheckingInterval: 50 }, (_req, res) => res.end()),
    );
    await listenServer(server, 0);
    try {
      const res = await raw(serverPort(server), 'GET /portal/x HTTP/1.1\r\nHost: a\r\n');
      expect(res.data).toBe('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
