/**
 * Why an outbound request failed, as a delivery log shows it:
 * - invalid_url: not an absolute http(s) URL, or credentials in it;
 * - dns: the host name did not resolve (or resolved to nothing);
 * - blocked_address: the host is, or resolves to, an address the policy refuses (nothing was sent);
 * - connect: no connection (refused, unreachable, reset before it was up, client closed);
 * - tls: the TLS handshake failed (certificate invalid, expired, wrong name, protocol);
 * - timeout: the connect deadline or the total deadline passed;
 * - redirect: a redirect that may not be followed (too many hops, a Location that is not http(s));
 * - response: the connection was up but the answer broke off or was not HTTP;
 * - aborted: the request's own signal ended it (the caller gave up).
 */
export type OutboundErrorKind =
  'invalid_url' | 'dns' | 'blocked_address' | 'connect' | 'tls' | 'timeout' | 'redirect' | 'response' | 'aborted';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = 'OutboundError';
  }
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
}

/**
 * Classifies whatever undici or Node threw. `deadlinePassed`: the total deadline's signal fired;
 * `connected`: a connection to the checked address was up, so a socket error is the answer's fault.
 */
export function classify(err: unknown, context: { deadlinePassed: boolean; connected: boolean }): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as ErrorLike;
  if (e.cause instanceof OutboundError) return e.cause;
  const message = typeof e.message === 'string' ? e.message : String(err);
  const code = String(e.code ?? (e.cause as ErrorLike | undefined)?.code ?? '');
  if (context.deadlinePassed || e.name === 'TimeoutError' || code.endsWith('_TIMEOUT') || code === 'ETIMEDOUT') {
    return new OutboundError('timeout', context.deadlinePassed ? 'the total deadline passed' : message, { cause: err });
  }
  if (TLS_CODES.test(code)) return new OutboundError('tls', message, { cause: err });
  if (DNS_CODES.has(code)) return new OutboundError('dns', message, { cause: err });
  return new OutboundError(context.connected ? 'response' : 'connect', message, { cause: err });
}
