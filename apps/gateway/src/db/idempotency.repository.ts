import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from '@platform/db';
import { deleteInBatches } from '@platform/jobs';
import type { GatewayDb } from './tables';

/** A stored answer, replayed byte for byte. */
export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: Buffer;
}

export type IdempotencyClaim =
  | { kind: 'claimed'; owner: string }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'in_progress' }
  | { kind: 'reused' };

export interface ClaimInput {
  partnerId: string;
  key: string;
  fingerprint: Buffer;
  /** How long an in-flight claim holds before it counts as abandoned. */
  lockMs: number;
  /** How long the key (and its answer) is kept. */
  ttlMs: number;
}

const afterMs = (ms: number) => sql<Date>`now() + ${ms} * interval '1 millisecond'`;

/**
 * Answers can hold secrets (a webhook endpoint's signing secret), so neither the key nor the
 * answer is kept in the clear: rows are found by the key's SHA-256, and the answer is sealed with
 * AES-256-GCM under a key derived from the Idempotency-Key itself. Only a request presenting the
 * key can read the answer back; the table alone reveals nothing.
 */
const storedKey = (key: string) => createHash('sha256').update(key).digest('hex');
const answerKey = (partnerId: string, key: string) => Buffer.from(hkdfSync('sha256', key, partnerId, 'idempotent-answer', 32));

function sealAnswer(partnerId: string, key: string, body: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', answerKey(partnerId, key), iv);
  const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function openAnswer(partnerId: string, key: string, blob: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', answerKey(partnerId, key), blob.subarray(0, 12));
  decipher.setAuthTag(blob.subarray(12, 28));
  return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]);
}

/** All SQL on gateway.idempotency_keys. */
export class IdempotencyRepository {
  constructor(private readonly db: Kysely<GatewayDb>) {}

  /**
   * Claims the key for this request, or says why not. One statement decides, so two requests with
   * one key never both run: the insert wins, or takes over an expired key or an abandoned claim of
   * the same request; otherwise the existing row answers (replay, in progress, or reused).
   */
  async claim(input: ClaimInput): Promise<IdempotencyClaim> {
    const owner = randomUUID();
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await this.db
        .insertInto('idempotency_keys')
        .values({
          partner_id: input.partnerId,
          key: storedKey(input.key),
          fingerprint: input.fingerprint,
          owner,
          status: null,
          content_type: null,
          body: null,
          locked_until: afterMs(input.lockMs),
          expires_at: afterMs(input.ttlMs),
        })
        .onConflict((oc) =>
          oc
            .columns(['partner_id', 'key'])
            .doUpdateSet((eb) => ({
              fingerprint: eb.ref('excluded.fingerprint'),
              owner: eb.ref('excluded.owner'),
              status: null,
              content_type: null,
              body: null,
              locked_until: eb.ref('excluded.locked_until'),
              expires_at: eb.ref('excluded.expires_at'),
              created_at: sql<Date>`now()`,
            }))
            .where((eb) =>
              eb.or([
                eb('idempotency_keys.expires_at', '<', sql<Date>`now()`),
                eb.and([
                  eb('idempotency_keys.status', 'is', null),
                  eb('idempotency_keys.locked_until', '<', sql<Date>`now()`),
                  eb('idempotency_keys.fingerprint', '=', eb.ref('excluded.fingerprint')),
                ]),
              ]),
            ),
        )
        .returning('owner')
        .executeTakeFirst();
      if (claimed?.owner === owner) return { kind: 'claimed', owner };

      const existing = await this.db
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'status', 'content_type', 'body'])
        .where('partner_id', '=', input.partnerId)
        .where('key', '=', storedKey(input.key))
        .executeTakeFirst();
      // Pruned between the two statements: claim again.
      if (!existing) continue;
      if (!existing.fingerprint.equals(input.fingerprint)) return { kind: 'reused' };
      if (existing.status === null) return { kind: 'in_progress' };
      const body = existing.body ? openAnswer(input.partnerId, input.key, existing.body) : Buffer.alloc(0);
      return { kind: 'replay', answer: { status: existing.status, contentType: existing.content_type, body } };
    }
    return { kind: 'in_progress' };
  }

  /** Stores the first request's answer; a claim taken over meanwhile is left alone. */
  async complete(partnerId: string, key: string, owner: string, answer: StoredAnswer) {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status: answer.status, content_type: answer.contentType, body: sealAnswer(partnerId, key, answer.body) })
      .where('partner_id', '=', partnerId)
      .where('key', '=', storedKey(key))
      .where('owner', '=', owner)
      .where('status', 'is', null)
      .execute();
  }

  /** Forgets a claim whose request never ran to an answer, so a retry runs it again. */
  async release(partnerId: string, key: string, owner: string) {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('partner_id', '=', partnerId)
      .where('key', '=', storedKey(key))
      .where('owner', '=', owner)
      .where('status', 'is', null)
      .execute();
  }

  /**
   * Drops expired keys, 1,000 rows per statement (found through idempotency_keys_expires_at), until
   * a batch comes back short or the signal aborts between two batches; returns how many went.
   */
  pruneExpired(signal?: AbortSignal): Promise<number> {
    return deleteInBatches(this.db, { name: 'idempotency_keys' }, sql`expires_at < now()`, { signal });
  }
}
