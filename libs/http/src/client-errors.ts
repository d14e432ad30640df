import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorObject, type ErrorCode } from '@platform/contracts';

/** How long an answered connection may stay half-closed, so the client can read the answer, before it is destroyed. */
const CLIENT_ERROR_LINGER_MS = 2_000;

/** What Node's parser reports, by the answer it deserves; anything else it rejects is 400 REQUEST.MALFORMED. */
const CODE_OF: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'REQUEST.HEADERS_TOO_LARGE',
  // Node itself answers 413 for chunk extensions over its limit; keep the status, add the envelope.
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'REQUEST.TOO_LARGE',
};

/** Node's own answer to a request that did not arrive in time (requestTimeout/headersTimeout): kept as is. */
const REQUEST_TIMEOUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** The response a socket is serving right now, if any (Node keeps it on the socket; not in its types). */
const inFlight = (socket: Duplex) =>
  (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;

/** The complete HTTP/1.1 answer, in the contract's envelope, for what the parser rejected. */
function clientErrorResponse(err: NodeJS.ErrnoException): string {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return REQUEST_TIMEOUT;
  const error = errorObject(CODE_OF[err.code ?? ''] ?? 'REQUEST.MALFORMED');
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * Answers what Node's HTTP parser rejects before any handler runs (a header section over the
 * limit, a malformed request line or header) in the contract's envelope instead of Node's empty
 * 400/431, then closes the connection. Like Node's default it never writes onto a connection
 * that is gone (reset, not writable) or whose current response has begun (that would corrupt
 * it): those are destroyed. The answer is sent with a half-close (FIN) and the connection is
 * destroyed when the client closes or after CLIENT_ERROR_LINGER_MS, so the client reads the
 * answer even while it is still sending, and a client that never closes holds nothing.
 */
export function answerClientErrors(server: Server): Server {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser fails again on every chunk that still arrives: the first answer stands.
    if (answered.has(socket)) return;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight(socket)?.headersSent) return void socket.destroy();
    answered.add(socket);
    socket.end(clientErrorResponse(err));
    const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  });
  return server;
}
