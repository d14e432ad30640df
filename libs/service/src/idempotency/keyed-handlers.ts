import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { InternalCaller } from '@platform/auth';
import type { RouteSpec } from '@platform/contracts';
import { SharedTransaction, type Kysely } from '@platform/db';
import { AppError, Reply, StoredReply, type Handlers } from '@platform/http';
import type { IdempotencyKeys, StoredAnswer } from './keys.repository';
import {
  FINGERPRINT_HEADER,
  IDEMPOTENT_METHODS,
  idempotencyKeyOf,
  isKeptAnswer,
  keyInProgress,
  keyReused,
  REPLAYED_HEADER,
  requestFingerprint,
} from './rules';

export interface KeyedSettings {
  db: Kysely<unknown>;
  keys: IdempotencyKeys;
  ttlMs: number;
  lockMs: number;
}

type Input = { params: unknown; query: unknown; body: unknown; caller: InternalCaller; req: IncomingMessage };
type AnyHandler = (input: Input) => unknown;
interface Claimed {
  partnerId: string;
  key: string;
  owner: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The handlers with every write route taking an Idempotency-Key (Stripe's semantics, the way
 * Brandur Leach's "Implementing Stripe-like Idempotency Keys in Postgres" keeps them): the key is
 * claimed first; the request's transactions (inTransaction on the service's db) then share one
 * transaction, in which the answer is written to the key's row before it commits. A retry after a
 * crash at any point finds either nothing committed (it runs the request) or the effect with its
 * answer (it replays it); never the effect alone.
 */
export function keyedHandlers<R extends RouteSpec>(
  routes: readonly R[],
  handlers: Handlers<R, InternalCaller>,
  settings: KeyedSettings,
): Handlers<R, InternalCaller> {
  const wrapped = { ...(handlers as unknown as Record<string, AnyHandler>) };
  for (const route of routes) {
    if (IDEMPOTENT_METHODS.has(route.method.toUpperCase()))
      wrapped[route.operationId] = keyed(wrapped[route.operationId]!, settings);
  }
  return wrapped as unknown as Handlers<R, InternalCaller>;
}

function keyed(handler: AnyHandler, settings: KeyedSettings): AnyHandler {
  return (input) => {
    const key = idempotencyKeyOf(input.req.method ?? 'GET', input.req.headers);
    if (key === undefined) return handler(input);
    return runKeyed(settings, { partnerId: input.caller.partnerId, key, fingerprint: fingerprintOf(input) }, () =>
      Promise.resolve(handler(input)),
    );
  };
}

/** A keyed request: whose key (the partner's), the key, and what makes two requests "the same" (requestFingerprint). */
export interface KeyedRequest {
  partnerId: string;
  key: string;
  fingerprint: Buffer;
}

/**
 * Runs a keyed request once: claims its key, then runs it in one shared transaction with its
 * answer (runClaimed); a retry gets the kept answer (a StoredReply, marked replayed), another
 * request under the key 409 IDEMPOTENCY.KEY_REUSED, and one while the first runs 409
 * IDEMPOTENCY.IN_PROGRESS. The services' write handlers and the gateway's own writes both run here.
 */
export async function runKeyed(settings: KeyedSettings, request: KeyedRequest, run: () => Promise<unknown>) {
  const { partnerId, key, fingerprint } = request;
  const claim = await settings.keys.claim({
    partnerId,
    key,
    fingerprint,
    lockMs: settings.lockMs,
    ttlMs: settings.ttlMs,
  });
  if (claim.kind === 'reused') throw keyReused();
  if (claim.kind === 'in_progress') throw keyInProgress();
  if (claim.kind === 'replay') return replayOf(claim.answer);
  return runClaimed(settings, { partnerId, key, owner: claim.owner }, run);
}

/**
 * The gateway's fingerprint of the partner's bytes; for an upload (which the gateway leaves to the
 * service: a rebuilt form has another boundary) or a call from another service, one of the parsed request.
 */
function fingerprintOf({ req, body }: Input): Buffer {
  const given = req.headers[FINGERPRINT_HEADER];
  if (typeof given === 'string' && /^[0-9a-f]{64}$/.test(given)) return Buffer.from(given, 'hex');
  return requestFingerprint(
    req.method ?? 'GET',
    req.url ?? '/',
    body === undefined ? undefined : Buffer.from(JSON.stringify(body, bytesByHash)),
  );
}

/** An uploaded file's bytes (a multipart route's) count by their hash, not as a JSON array of numbers. */
function bytesByHash(this: Record<string, unknown>, key: string, value: unknown) {
  const raw = this[key];
  return ArrayBuffer.isView(raw)
    ? createHash('sha256')
        .update(raw as Uint8Array)
        .digest('hex')
    : value;
}

/** Runs the claimed request in one shared transaction and commits its answer with it; a failure keeps its 4xx answer, or frees the key (as a failed commit does). */
async function runClaimed(settings: KeyedSettings, claimed: Claimed, run: () => Promise<unknown>): Promise<unknown> {
  const shared = new SharedTransaction(settings.db);
  let result: unknown;
  try {
    result = await shared.run(run);
  } catch (err) {
    await shared.rollback();
    await keepFailure(settings, claimed, err);
    throw err;
  }
  try {
    const kept = await settings.keys.complete(
      await shared.open(),
      claimed.partnerId,
      claimed.key,
      claimed.owner,
      answerOf(result),
    );
    // Taken over after the lock ran out: the request that took over owns the key and runs the effect.
    if (!kept) throw keyInProgress();
    await shared.commit();
  } catch (err) {
    await shared.rollback();
    // Nothing committed (a COMMIT that failed), so a retry must run it again; the release touches
    // only a claim still ours with no answer, so one taken over, or a commit that landed after all, stays.
    await settings.keys.release(claimed.partnerId, claimed.key, claimed.owner);
    throw err;
  }
  return result;
}

/** A refusal (4xx) is the request's answer, kept like a success (nothing was written); anything else frees the key. */
async function keepFailure(settings: KeyedSettings, { partnerId, key, owner }: Claimed, err: unknown) {
  const error = err instanceof AppError ? err.toErrorObject() : undefined;
  if (error && isKeptAnswer(error.status)) {
    const answer = {
      status: error.status,
      headers: { 'content-type': JSON_TYPE },
      body: Buffer.from(JSON.stringify({ error })),
    };
    await settings.keys.complete(settings.db, partnerId, key, owner, answer);
  } else {
    await settings.keys.release(partnerId, key, owner);
  }
}

/** The bytes the dispatcher sends for a handler's result. */
function answerOf(result: unknown): StoredAnswer {
  const reply = result instanceof Reply ? result : new Reply(200, result);
  if (reply.status === 204) return { status: 204, headers: { ...reply.headers }, body: Buffer.alloc(0) };
  return {
    status: reply.status,
    headers: { ...reply.headers, 'content-type': JSON_TYPE },
    body: Buffer.from(JSON.stringify(reply.body)),
  };
}

const replayOf = ({ status, headers, body }: StoredAnswer) =>
  new StoredReply(status, { ...headers, [REPLAYED_HEADER]: 'true' }, body);
