import { connect } from 'node:net';

export interface RawAnswer {
  /** Everything the server sent, as latin1 text. */
  data: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits a raw HTTP/1.1 answer into status, lower-cased headers and body. */
export function parseRawAnswer(data: string): RawAnswer {
  const split = data.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = data.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return {
    data,
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
    headers,
    body: data.slice(split + 4),
  };
}

/**
 * Sends raw bytes to 127.0.0.1:port (requests a client library would refuse to send) and reads
 * the whole answer until the server closes the connection.
 */
export function rawHttp(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => socket.end());
    socket.on('close', () => resolve(parseRawAnswer(data)));
    socket.write(request);
  });
}
