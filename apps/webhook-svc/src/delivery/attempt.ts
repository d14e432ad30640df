import { extractTrace, inSpan, SpanKind, SpanStatusCode, type Span, type Tracer } from '@platform/observability';
import { OutboundError, type OutboundClient, type OutboundResponse } from '@platform/outbound';
import type { AttemptResult, DeliveryWork } from './delivery-work.repository';
import { classifyAttempt, loggedAnswer } from '../domain/attempt-classification';
import { retryOutcome } from '../domain/retry-outcome';
import type { RetryPolicy } from '../domain/retry-schedule';
import { signatureHeader, type SecretBox } from '../domain/secrets';

const USER_AGENT = 'PrivacyWidget-Webhooks/1.0';

interface AttemptDeps {
  outbound: OutboundClient;
  secrets: SecretBox;
  retry: RetryPolicy;
  /** Called with each attempt's duration (metrics). */
  observeDuration(ms: number): void;
  /** Each attempt a client span in its event's trace; none when tracing is off. */
  tracer?: Tracer;
}

/** One attempt's result, and whether it says the endpoint is unwell (for its breaker). */
export interface Attempted {
  result: AttemptResult;
  unwell: boolean;
}

/**
 * Sends one signed attempt of a delivery and says what it means and what becomes of the delivery.
 * The attempt is a client span under the event's stored trace context; the partner's request
 * carries no traceparent (our trace ids are not theirs to see).
 */
export async function attemptDelivery(work: DeliveryWork, deps: AttemptDeps): Promise<Attempted> {
  return inSpan(deps.tracer, attemptSpan(work), (span) => attemptIn(span, work, deps));
}

const attemptSpan = (work: DeliveryWork) => ({
  name: 'webhook deliver',
  kind: SpanKind.CLIENT,
  parent: extractTrace(work.traceparent ? { traceparent: work.traceparent } : undefined),
  attributes: {
    'http.request.method': 'POST',
    'webhook.delivery.id': work.id,
    'webhook.endpoint.id': work.endpoint_id,
    'webhook.attempt': work.attempt_count + 1,
  },
});

async function attemptIn(span: Span | undefined, work: DeliveryWork, deps: AttemptDeps): Promise<Attempted> {
  const attemptedAt = new Date();
  const started = performance.now();
  const { response, failure } = await post(deps.outbound, work, signedHeaders(work, deps.secrets, attemptedAt));
  if (response) span?.setAttribute('http.response.status_code', response.status);
  if (failure) span?.setAttribute('error.type', failure.kind);
  const durationMs = response?.durationMs ?? performance.now() - started;
  deps.observeDuration(durationMs);
  const status = response?.status ?? null;
  const verdict = classifyAttempt(status, failure);
  const outcome = retryOutcome(
    deps.retry,
    { attemptCount: work.attempt_count, finalAttempt: work.final_attempt },
    { ok: verdict.ok, status, retryAfter: response?.headers['retry-after'] },
  );
  const result: AttemptResult = {
    deliveryId: work.id,
    endpointId: work.endpoint_id,
    attemptedAt,
    durationMs,
    statusCode: status,
    error: verdict.error,
    errorMessage: verdict.errorMessage,
    ...loggedAnswer(response),
    ok: verdict.ok,
    ...outcome,
  };
  if (!verdict.ok) span?.setStatus({ code: SpanStatusCode.ERROR, message: verdict.error ?? undefined });
  return { result, unwell: verdict.unwell };
}

/**
 * The Standard Webhooks headers of an attempt, signed with the endpoint's secret and, while it
 * still signs, the rotated-out one.
 */
function signedHeaders(work: DeliveryWork, box: SecretBox, at: Date): Record<string, string> {
  const secrets = [box.open(work.secret), ...(work.previous_secret ? [box.open(work.previous_secret)] : [])];
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': work.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, work.id, timestamp, work.body),
  };
}

async function post(
  outbound: OutboundClient,
  work: DeliveryWork,
  headers: Record<string, string>,
): Promise<{ response?: OutboundResponse; failure?: OutboundError }> {
  try {
    return {
      response: await outbound.request({
        method: 'POST',
        url: work.url,
        headers,
        body: Buffer.from(work.body, 'utf8'),
      }),
    };
  } catch (err) {
    return { failure: err instanceof OutboundError ? err : new OutboundError('connect', String(err)) };
  }
}
