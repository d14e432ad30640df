import type { ServerResponse } from 'node:http';
import type { ServiceRequest, ServiceResponse } from '@platform/http';
import type { IdempotencyRepository, StoredAnswer } from '../db/idempotency.repository';
import type { Upstreams } from './forward';
import { isKeptAnswer, keyInProgress, keyReused, REPLAYED_HEADER, requestFingerprint } from '../domain/idempotency';
import type { PortalDeps } from './portal.handler';

/** One request with an Idempotency-Key, on its way to a service. */
export interface IdempotentCall {
  partnerId: string;
  idempotencyKey: string;
  request: ServiceRequest;
  service: keyof Upstreams;
  requestId: string;
}

type IdempotencyDeps = Pick<PortalDeps, 'idempotency' | 'idempotencyTtlMs' | 'idempotentCompletionMs' | 'upstreams' | 'logger'>;

/**
 * Forwards a request with an Idempotency-Key at most once: replays the kept answer, refuses a
 * reused or busy key, or claims the key and keeps the outcome, even one that arrives after the
 * partner's deadline (a retry then gets it instead of running the write twice). Undefined when
 * the answer was already sent from the store.
 */
export async function forwardOnce(deps: IdempotencyDeps, call: IdempotentCall, res: ServerResponse): Promise<ServiceResponse | undefined> {
  const { partnerId, idempotencyKey, request } = call;
  const claim = await deps.idempotency.claim({
    partnerId,
    key: idempotencyKey,
    fingerprint: requestFingerprint(request.method, request.path, request.body as Buffer | undefined),
    lockMs: deps.idempotentCompletionMs + 10_000,
    ttlMs: deps.idempotencyTtlMs,
  });
  if (claim.kind === 'reused') throw keyReused();
  if (claim.kind === 'in_progress') throw keyInProgress();
  if (claim.kind === 'replay') return void sendReplay(res, claim.answer);
  const settle = (answer: ServiceResponse | undefined) => settleClaim(deps.idempotency, call, claim.owner, answer);
  const { answer, outcome } = deps.upstreams[call.service].requestWithOutcome(request, deps.idempotentCompletionMs);
  try {
    const upstream = await answer;
    // Kept before the partner sees it, so an immediate retry replays instead of finding it in progress.
    await settle(upstream);
    return upstream;
  } catch (err) {
    // The partner's deadline passed (or the breaker refused): keep whatever the service answers later.
    void outcome.then(settle).catch((e: unknown) => deps.logger.error({ err: e, requestId: call.requestId }, 'storing an idempotent outcome failed'));
    throw err;
  }
}

/** The kept answer, byte for byte, marked as a replay. */
function sendReplay(res: ServerResponse, { status, contentType, body }: StoredAnswer) {
  res.statusCode = status;
  res.setHeader(REPLAYED_HEADER, 'true');
  if (contentType) res.setHeader('content-type', contentType);
  res.setHeader('content-length', body.length);
  res.end(body);
}

/** Keeps an answer that is the request's outcome; otherwise frees the key so a retry runs the request again. */
async function settleClaim(idempotency: IdempotencyRepository, call: IdempotentCall, owner: string, answer: ServiceResponse | undefined) {
  if (answer && isKeptAnswer(answer.status)) {
    const contentType = answer.headers['content-type'];
    await idempotency.complete(call.partnerId, call.idempotencyKey, owner, {
      status: answer.status,
      contentType: typeof contentType === 'string' ? contentType : null,
      body: answer.body,
    });
  } else {
    await idempotency.release(call.partnerId, call.idempotencyKey, owner);
  }
}
