import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorObject } from '@platform/contracts';

/**
 * Answers what Node's HTTP parser rejects before any handler runs (a header section over the
 * limit, a malformed request line or header) in the contract's envelope instead of an empty
 * 400/431, then closes the connection. Timeouts and resets just close it, as Node does.
 */
export function answerClientErrors(server: Server): Server {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.destroy();
    const error = err.code === 'HPE_HEADER_OVERFLOW' ? errorObject('REQUEST.HEADERS_TOO_LARGE') : errorObject('REQUEST.MALFORMED');
    const body = JSON.stringify({ error });
    const reason = error.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${error.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
