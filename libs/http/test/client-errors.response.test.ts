import { connect } from 'node:net';
import type { Server } from 'node:http';
import { createLogger } from '@platform/observability';
import { createDispatcher, createHttpServer, listenServer, serverPort } from '../src';

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(port: number, request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body });
    });
    socket.write(request);
  });
}

describe('errors from the HTTP parser', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    const listener = createDispatcher({
      logger: createLogger('test', 'silent'),
      routes: [],
      handlers: {},
      prefix: '/portal',
      authenticate: () => undefined,
      fallback: (_req, res) => res.writeHead(404).end(),
    });
    server = await listenServer(createHttpServer(listener), 0);
    port = serverPort(server);
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const envelope = (code: string, status: number) => ({ error: expect.objectContaining({ code, ns: code.split('.')[0], status, message: expect.any(String) }) });

  it('when the headers are over the limit, then 431 REQUEST.HEADERS_TOO_LARGE in the envelope and the connection closes', async () => {
    const res = await raw(port, `GET /portal/x HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(res.headers).toMatch(/connection: close/i);
    expect(JSON.parse(res.body)).toEqual(envelope('REQUEST.HEADERS_TOO_LARGE', 431));
  });

  it.each([
    ['a garbage request line', 'GARBAGE\r\n\r\n'],
    ['a header with an invalid character', 'GET /portal/x HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n'],
    ['a bad Content-Length', 'POST /portal/x HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n'],
  ])('when the request has %s, then 400 REQUEST.MALFORMED in the envelope', async (_what, request) => {
    const res = await raw(port, request);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(envelope('REQUEST.MALFORMED', 400));
  });
});
