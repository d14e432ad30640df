import { isJsonContentType } from './middleware';

/**
 * What became of one call to a service, as far as the breakers care:
 * - answered: some HTTP answer arrived (enveloped: a JSON body, as our services answer errors);
 * - timeout: no (complete) answer within the call's deadline;
 * - connection: refused, reset or closed: nothing is listening, or it died mid-answer;
 * - request: the call could not be made as given (our side's argument error): says nothing of the service.
 */
export type CallOutcome =
  | { kind: 'answered'; status: number; enveloped: boolean }
  | { kind: 'timeout' }
  | { kind: 'connection' }
  | { kind: 'request' };

/**
 * For the service's shared breaker: `failure` (the service itself is failing), `ok` (it answered,
 * so it is alive), `unknown` (only a liveness check can tell: see ServiceClient), `neutral`.
 * For the (partner, service) breaker: `failure` when the outcome may be that partner's own doing.
 */
export interface Verdict {
  service: 'ok' | 'failure' | 'unknown' | 'neutral';
  partner: 'ok' | 'failure' | 'neutral';
}

/** Answers that say "not now" for this request: the service is up, something behind it (or this partner's load) is not. */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/**
 * The breaker rules. A shared breaker refuses every partner, so it counts only what shows the
 * service itself failing: connections refused or reset, and answers not in our envelope (a proxy's
 * or a stranger's page). A service that answers in the envelope is alive, whatever the status:
 * its 503 about its own dependency is an answer. A time-out may be one partner's slow request
 * (its locks, its batch size) or a stuck process: it counts against the partner, and against the
 * service only when the service shows no other sign of life. 500 is one request's bug: counted and
 * logged by the caller, never a reason to refuse anyone.
 */
export function verdictOf(outcome: CallOutcome): Verdict {
  switch (outcome.kind) {
    case 'connection':
      return { service: 'failure', partner: 'neutral' };
    case 'timeout':
      return { service: 'unknown', partner: 'failure' };
    case 'request':
      return { service: 'neutral', partner: 'neutral' };
    case 'answered': {
      if (outcome.status >= 400 && !outcome.enveloped) return { service: 'failure', partner: 'neutral' };
      if (UNAVAILABLE_STATUSES.has(outcome.status)) return { service: 'ok', partner: 'failure' };
      return { service: 'ok', partner: outcome.status === 500 ? 'neutral' : 'ok' };
    }
  }
}

/** The call's own deadline passed before the answer arrived. */
export class DeadlineExceeded extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'DeadlineExceeded';
  }
}

/** Undici's and Node's codes for a deadline that passed while waiting for the answer. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Codes of a request undici refused to send as given: the caller's mistake, not the service's. */
const REQUEST_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_NOT_SUPPORTED',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
]);

/** The outcome of a call that threw: a time-out, a request we could not send, else a failed connection. */
export function outcomeOfError(err: unknown): CallOutcome {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  if (TIMEOUT_CODES.has(code) || err instanceof DeadlineExceeded) return { kind: 'timeout' };
  if (REQUEST_CODES.has(code)) return { kind: 'request' };
  return { kind: 'connection' };
}

/** The outcome of an answer: its status, and whether its body is ours (JSON, as the envelope is). */
export function outcomeOfAnswer(status: number, contentType: string | string[] | undefined): CallOutcome {
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  return { kind: 'answered', status, enveloped: isJsonContentType(type) };
}
