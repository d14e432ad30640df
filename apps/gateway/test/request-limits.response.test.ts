import { connect, type Socket } from 'node:net';
import { parseRawAnswer, type RawAnswer } from '@platform/testing';
import { bearer, envelope, json, startGateway, startSuite, type Gateway, type Suite } from './support/harness';

const portOf = (url: string) => Number(new URL(url).port);

interface Exchange {
  socket: Socket;
  /** Resolves with the answer once it is complete (by Content-Length) or the server closed; undefined after `withinMs`. */
  answer(withinMs: number): Promise<RawAnswer | undefined>;
  /** Resolves once the server closed the connection; false after `withinMs`. */
  closed(withinMs: number): Promise<boolean>;
}

/** Opens a raw connection to the gateway and sends the head of a request, not its body. */
function sendHead(port: number, head: string): Exchange {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  let data = '';
  let ended = false;
  const waiting = new Set<() => void>();
  const notify = () => waiting.forEach((fn) => fn());
  socket.on('data', (chunk: string) => ((data += chunk), notify()));
  socket.on('error', () => undefined);
  socket.on('close', () => ((ended = true), notify()));
  socket.write(head);
  const complete = () => {
    const split = data.indexOf('\r\n\r\n');
    if (split < 0) return ended;
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(data.slice(0, split))?.[1] ?? 0);
    return ended || data.length - split - 4 >= length;
  };
  const until = <T>(done: () => boolean, value: () => T, otherwise: T, withinMs: number) =>
    new Promise<T>((resolve) => {
      const check = () => {
        if (!done()) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve(value());
      };
      const timer = setTimeout(() => (waiting.delete(check), resolve(otherwise)), withinMs);
      waiting.add(check);
      check();
    });
  return {
    socket,
    answer: (withinMs) =>
      until(complete, () => (data.includes('\r\n\r\n') ? parseRawAnswer(data) : undefined), undefined, withinMs),
    closed: (withinMs) =>
      until(
        () => ended,
        () => true,
        false,
        withinMs,
      ),
  };
}

const postHead = (key: string, contentLength: number) =>
  'POST /portal/things HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
  `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

const BODY_TIMEOUT_MS = 1_500;

describe('request bounds: a body the gateway will not take, and a body that arrives too slowly', () => {
  let suite: Suite;
  let gateway: Gateway;
  let key: string;

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway({ ...suite.env, BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
    key = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  it('when an authenticated POST declares a 2 GiB body and sends none, then 413 REQUEST.TOO_LARGE arrives at once (before the body timeout) and the connection closes', async () => {
    const exchange = sendHead(portOf(gateway.url), postHead(key, 2_147_483_648));
    try {
      const answer = await exchange.answer(BODY_TIMEOUT_MS);
      expect(answer?.status).toBe(413);
      expect(JSON.parse(answer!.body)).toEqual(envelope('REQUEST.TOO_LARGE', 413));
      expect(answer!.headers.connection).toBe('close');
      expect(await exchange.closed(3_000)).toBe(true);
    } finally {
      exchange.socket.destroy();
    }
  });

  it('when the declared length is within the limit, then the request is still read and passed on as before (the service judges its JSON)', async () => {
    const res = await fetch(`${gateway.url}/portal/things`, {
      method: 'POST',
      headers: bearer(key, { 'content-type': 'application/json' }),
      body: '{"name":',
    });
    expect(res.status).toBe(201);
    expect((await json(res)).result.body).toBe('{"name":');
  });

  it('when a body trickles in slower than BODY_TIMEOUT_MS, then 408 and the connection is closed within the bound', async () => {
    const started = Date.now();
    const exchange = sendHead(portOf(gateway.url), postHead(key, 1_000));
    const trickle = setInterval(() => exchange.socket.writable && exchange.socket.write(' '), 200);
    try {
      const answer = await exchange.answer(BODY_TIMEOUT_MS + 2_500);
      const closed = await exchange.closed(1_000);
      const elapsed = Date.now() - started;
      expect(answer?.status).toBe(408);
      expect(closed).toBe(true);
      expect(elapsed).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 100);
      expect(elapsed).toBeLessThan(BODY_TIMEOUT_MS + 2_500);
    } finally {
      clearInterval(trickle);
      exchange.socket.destroy();
    }
  });

  it('when a body arrives within the bound, then it is served as before', async () => {
    const res = await fetch(`${gateway.url}/portal/things`, {
      method: 'POST',
      headers: bearer(key, { 'content-type': 'application/json' }),
      body: JSON.stringify({ name: 'in time' }),
    });
    expect(res.status).toBe(201);
    expect((await json(res)).result.body).toBe('{"name":"in time"}');
  });
});
