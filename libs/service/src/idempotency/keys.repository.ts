import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { precompile, sql, type Kysely } from '@platform/db';
import { deleteInBatches, type JobDefinition } from '@platform/jobs';

/** An answer as sent, replayed byte for byte. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type KeyClaim =
  | { kind: 'claimed'; owner: string }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'in_progress' }
  | { kind: 'reused' };

export interface ClaimInput {
  partnerId: string;
  key: string;
  fingerprint: Buffer;
  /** How long an in-flight claim holds before it counts as abandoned (the process died before committing). */
  lockMs: number;
  /** How long the key (and its answer) is kept. */
  ttlMs: number;
}

type Params = Record<string, unknown>;

/**
 * The statements, built once and then only given new parameters (precompile): a keyed write runs
 * two of them in the service's process, and Kysely's builder would cost more than their round trip.
 * Durations are milliseconds; the service's search_path is its schema.
 */
const claimQuery = precompile(
  (_db: Kysely<unknown>, p: Params) => sql<{ owner: string }>`
  INSERT INTO idempotency_keys (partner_id, key, fingerprint, owner, locked_until, expires_at)
  VALUES (${p.partnerId}, ${p.key}, ${p.fingerprint}, ${p.owner}, now() + ${p.lockMs}::int * interval '1 millisecond', now() + ${p.ttlMs}::bigint * interval '1 millisecond')
  ON CONFLICT (partner_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, owner = EXCLUDED.owner, status = NULL, headers = NULL, body = NULL,
    locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now()
  WHERE idempotency_keys.expires_at < now()
     OR (idempotency_keys.status IS NULL AND idempotency_keys.locked_until < now() AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
  RETURNING owner`,
);
const existingQuery = precompile(
  (_db: Kysely<unknown>, p: Params) =>
    sql<{ fingerprint: Buffer; status: number | null; headers: Record<string, string> | null; body: Buffer | null }>`
      SELECT fingerprint, status, headers, body FROM idempotency_keys WHERE partner_id = ${p.partnerId} AND key = ${p.key}`,
);
const completeQuery = precompile(
  (_db: Kysely<unknown>, p: Params) => sql<{ owner: string }>`
    UPDATE idempotency_keys SET status = ${p.status}::int, headers = ${p.headers}::jsonb, body = ${p.body}
    WHERE partner_id = ${p.partnerId} AND key = ${p.key} AND owner = ${p.owner} AND status IS NULL RETURNING owner`,
);
const releaseQuery = precompile(
  (_db: Kysely<unknown>, p: Params) =>
    sql`DELETE FROM idempotency_keys WHERE partner_id = ${p.partnerId} AND key = ${p.key} AND owner = ${p.owner} AND status IS NULL`,
);

/**
 * Answers can hold secrets (a webhook endpoint's signing secret), so neither the key nor the
 * answer is kept in the clear: rows are found by the key's SHA-256, and the answer is sealed with
 * AES-256-GCM under a key derived from the Idempotency-Key itself. Only a request presenting the
 * key can read the answer back; the table alone reveals nothing.
 */
const storedKey = (key: string) => createHash('sha256').update(key).digest('hex');
const answerKey = (partnerId: string, key: string) =>
  Buffer.from(hkdfSync('sha256', key, partnerId, 'idempotent-answer', 32));

function seal(partnerId: string, key: string, body: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', answerKey(partnerId, key), iv);
  const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function unseal(partnerId: string, key: string, blob: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', answerKey(partnerId, key), blob.subarray(0, 12));
  decipher.setAuthTag(blob.subarray(12, 28));
  return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]);
}

/** All SQL on a service's idempotency_keys (its connections' search_path is the service's schema). */
export class IdempotencyKeys {
  constructor(private readonly db: Kysely<unknown>) {}

  /**
   * Claims the key for this request, or says why not. One statement decides, so two requests with
   * one key never both run: the insert wins, or takes over an expired key or an abandoned claim of
   * the same request; otherwise the existing row answers (replay, in progress, or reused).
   */
  async claim(input: ClaimInput): Promise<KeyClaim> {
    const owner = randomUUID();
    const { partnerId, fingerprint, lockMs, ttlMs } = input;
    for (let attempt = 0; attempt < 3; attempt++) {
      const [claimed] = await claimQuery(this.db, {
        partnerId,
        key: storedKey(input.key),
        fingerprint,
        owner,
        lockMs,
        ttlMs,
      });
      if (claimed?.owner === owner) return { kind: 'claimed', owner };
      const verdict = await this.existing(input);
      if (verdict) return verdict;
      // Pruned between the two statements: claim again.
    }
    return { kind: 'in_progress' };
  }

  private async existing(input: ClaimInput): Promise<KeyClaim | undefined> {
    const [row] = await existingQuery(this.db, { partnerId: input.partnerId, key: storedKey(input.key) });
    if (!row) return undefined;
    if (!row.fingerprint.equals(input.fingerprint)) return { kind: 'reused' };
    if (row.status === null) return { kind: 'in_progress' };
    const body = row.body ? unseal(input.partnerId, input.key, row.body) : Buffer.alloc(0);
    return { kind: 'replay', answer: { status: row.status, headers: row.headers ?? {}, body } };
  }

  /**
   * Stores the claimed request's answer, on db: the request's own transaction, so the answer
   * commits with its effect. False when the claim was taken over meanwhile (then the effect must
   * not commit: the request that took over runs it).
   */
  async complete(
    db: Kysely<unknown>,
    partnerId: string,
    key: string,
    owner: string,
    answer: StoredAnswer,
  ): Promise<boolean> {
    const body = seal(partnerId, key, answer.body);
    const rows = await completeQuery(db, {
      partnerId,
      key: storedKey(key),
      owner,
      status: answer.status,
      headers: JSON.stringify(answer.headers),
      body,
    });
    return rows.length > 0;
  }

  /** Forgets a claim whose request ended without an answer to keep (5xx), so a retry runs it again. */
  async release(partnerId: string, key: string, owner: string) {
    await releaseQuery(this.db, { partnerId, key: storedKey(key), owner });
  }

  /** Drops expired keys, 1,000 rows per statement, until a batch comes back short or the signal aborts between two; returns how many went. */
  pruneExpired(signal?: AbortSignal): Promise<number> {
    return deleteInBatches(this.db, { name: 'idempotency_keys' }, sql`expires_at < now()`, { signal });
  }
}

/** The job that drops keys past their TTL, in bounded batches (a stopping process ends it between two): every service's, and the gateway's. */
export const pruneIdempotencyKeysJob = <DB>(): JobDefinition<DB> => ({
  name: 'prune-idempotency-keys',
  intervalMs: 10 * 60_000,
  singleton: true,
  deadlineMs: 5 * 60_000,
  jitterMs: 60_000,
  run: async ({ db, signal }) => ({ pruned: await new IdempotencyKeys(db as Kysely<unknown>).pruneExpired(signal) }),
});
