import type { OutboundErrorKind } from '@platform/outbound';

/** Text the delivery log keeps of an answer. */
export const LOGGED_BODY_BYTES = 20 * 1024;

/** A request that got no usable answer: refused before sending, no connection, no complete answer in time ... */
export interface AttemptFailure {
  kind: OutboundErrorKind;
  message: string;
}

/** What one attempt means, from its HTTP status (null: no answer) or its failure. */
interface AttemptVerdict {
  /** A 2xx: delivered. */
  ok: boolean;
  /** The delivery log's error: the failure's kind, `redirect` for a 3xx (never followed), or null. */
  error: string | null;
  /** What the partner reads about that error. */
  errorMessage: string | null;
  /** The answer says the endpoint is unwell (no answer, a 5xx, a 429): its breaker counts it. */
  unwell: boolean;
}

const REDIRECT_MESSAGE = 'Redirects are not followed; register the final URL.';

export function classifyAttempt(status: number | null, failure?: AttemptFailure): AttemptVerdict {
  const ok = status !== null && status >= 200 && status < 300;
  const redirect = status !== null && status >= 300 && status < 400;
  return {
    ok,
    error: failure ? failure.kind : redirect ? 'redirect' : null,
    errorMessage: failure ? publicMessage(failure) : redirect ? REDIRECT_MESSAGE : null,
    unwell: !ok && (status === null || status >= 500 || status === 429),
  };
}

/** What the delivery log says about a failure: never an address the policy refused, or an internal name's lookup. */
function publicMessage(failure: AttemptFailure): string {
  switch (failure.kind) {
    case 'blocked_address':
      return 'The host is, or resolves to, an address that may not be contacted; nothing was sent.';
    case 'dns':
      return 'The host name did not resolve.';
    case 'timeout':
      return failure.message.includes('connect')
        ? 'No connection within the connect deadline.'
        : 'No complete answer within the deadline.';
    default:
      return failure.message.slice(0, 300);
  }
}

/**
 * What the delivery log keeps of an answer: its first 20 KiB as text PostgreSQL can store (invalid
 * UTF-8 becomes U+FFFD, NUL is dropped), and whether there was more.
 */
export function loggedAnswer(answer: { body: Buffer; truncated: boolean } | undefined): {
  responseBody: string | null;
  responseTruncated: boolean;
} {
  if (!answer) return { responseBody: null, responseTruncated: false };
  return {
    responseBody: answer.body
      .subarray(0, LOGGED_BODY_BYTES)
      .toString('utf8')
      .replace(/\u0000/g, ''),
    responseTruncated: answer.truncated || answer.body.length > LOGGED_BODY_BYTES,
  };
}
