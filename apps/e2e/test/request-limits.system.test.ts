import { connect, type Socket } from 'node:net';
import { parseRawAnswer, type RawAnswer } from '@platform/testing';
import { envelope, sharedSystem, startSystem, type OwnSystem, type Partner, type System } from './support/system';

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
  'POST /portal/domains HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
  `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

describe('the gateway refuses a body it will not take without waiting for it', () => {
  let sys: System;
  let partner: Partner;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
  });
  afterAll(() => sys?.close());

  it('when an authenticated POST declares a 2 GiB body and sends none, then 413 REQUEST.TOO_LARGE arrives at once and the connection closes', async () => {
    const exchange = sendHead(portOf(sys.gateway), postHead(partner.key, 2_147_483_648));
    try {
      const answer = await exchange.answer(3_000);
      expect(answer?.status).toBe(413);
      expect(JSON.parse(answer!.body)).toEqual(envelope('REQUEST.TOO_LARGE', 413));
      expect(answer!.headers.connection).toBe('close');
      expect(await exchange.closed(3_000)).toBe(true);
    } finally {
      exchange.socket.destroy();
    }
  });

  it('when the declared length is within the limit, then the request is still read and answered as before', async () => {
    const res = await sys.call(partner, 'POST', '/portal/domains', '{"domain":', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope('VALIDATION.MALFORMED_JSON', 400));
  });
});

describe('a body that arrives too slowly is cut off', () => {
  const BODY_TIMEOUT_MS = 1_500;
  let sys: OwnSystem;
  let partner: Partner;

  beforeAll(async () => {
    sys = await startSystem({ BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS) });
    partner = await sys.partner();
  });
  afterAll(() => sys?.close());

  it('when a body trickles in slower than BODY_TIMEOUT_MS, then 408 and the connection is closed within the bound', async () => {
    const started = Date.now();
    const exchange = sendHead(portOf(sys.gateway), postHead(partner.key, 1_000));
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
    const res = await sys.call(partner, 'POST', '/portal/domains', '{"domain":', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope('VALIDATION.MALFORMED_JSON', 400));
  });
});
