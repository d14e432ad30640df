import type { z } from 'zod';
import type { Kysely, Transaction } from 'kysely';
import { EVENT_REGISTRY, isEventName, type EventMessage } from '@platform/contracts';
import { afterCommit, inTransaction } from '@platform/db';
import type { Logger, Tracer } from '@platform/observability';
import { errorText } from './error-text';
import { runHandlers, takes, type CommitHook, type Handled, type HandlerSet } from './handlers';
import { recordProcessed } from './processed';

/** What handleEventMessage needs of a consumer: its idempotency scope, its handlers, where to log. */
export interface EventMessageHandling<DB> extends HandlerSet<DB> {
  /** Schema holding processed_messages (see consumerMigration). */
  schema: string;
  /** Work queue name; also the consumer's idempotency scope. */
  queue: string;
  logger: Logger;
}

/** A registered event whose payload fails its schema: running it again cannot succeed. */
export class InvalidEventMessageError extends Error {
  override name = 'InvalidEventMessageError';
  constructor(readonly issues: z.ZodError) {
    super(`invalid payload: ${issues.message}`);
  }
}

/** A registered event's payload must match the registry's schema (else InvalidEventMessageError). */
export function checkPayload(message: EventMessage) {
  const name = message.payload.event;
  if (!isEventName(name)) return;
  const checked = EVENT_REGISTRY[name].schema.safeParse(message.payload);
  if (!checked.success) throw new InvalidEventMessageError(checked.error);
}

/**
 * Runs one message exactly as a consumer does: checks a registered event's payload against the
 * registry (InvalidEventMessageError), picks the typed handler by event name (else the catch-all),
 * records the id in `queue`'s scope and runs the handler in that transaction, then the
 * after-commit hooks. fresh is false for a message already recorded, or one no handler takes
 * (not recorded, so a consumer that later handles it still can). Another entry point (e.g. a
 * service handing over the event it just committed) shares the consumer's idempotency this way.
 */
export async function handleEventMessage<DB>(
  db: Kysely<DB>,
  handling: EventMessageHandling<DB>,
  message: EventMessage,
): Promise<{ fresh: boolean }> {
  checkPayload(message);
  const fresh = await handleEventBatch(db, handling, [{ message }]);
  return { fresh: fresh.size === 1 };
}

/**
 * Handles checked messages in one transaction: records the ids of those a handler takes, runs
 * the fresh ones in order, commits, then runs the handlers' after-commit hooks (see afterCommit). Answers the ids that were
 * fresh; if any handler throws, nothing commits.
 */
export async function handleEventBatch<DB>(
  db: Kysely<DB>,
  handling: EventMessageHandling<DB>,
  batch: Handled[],
  tracer?: Tracer,
): Promise<Set<string>> {
  const taken = batch.filter((b) => takes(handling, b.message.payload.event));
  if (taken.length === 0) return new Set();
  return inTransaction(db, (trx) => recordAndRun(trx, handling, taken, tracer));
}

/** One attempt of the batch's transaction (a rerun after a deadlock starts again from nothing). */
async function recordAndRun<DB>(
  trx: Transaction<DB>,
  handling: EventMessageHandling<DB>,
  taken: Handled[],
  tracer: Tracer | undefined,
) {
  const fresh = await recordProcessed(
    trx,
    handling.schema,
    handling.queue,
    taken.map((b) => b.message.id),
  );
  const pending = new Set(fresh);
  // delete: an id given twice in one batch runs once.
  const todo = taken.filter((b) => pending.delete(b.message.id));
  const byId = new Map(taken.map((b) => [b.message.id, b]));
  const committed: CommitHook[] = [];
  const scope = {
    trx,
    committed,
    requestIdOf: (m: EventMessage) => byId.get(m.id)?.requestId,
    traceOf: (m: EventMessage) => byId.get(m.id)?.trace,
    tracer,
  };
  await runHandlers(scope, handling, todo);
  // The one after-commit mechanism: inside a shared transaction it waits for the shared COMMIT.
  if (committed.length > 0) await afterCommit(trx, () => runCommitHooks(committed, handling.logger));
  return fresh;
}

function runCommitHooks(committed: CommitHook[], logger: Logger) {
  for (const { event, fn } of committed) {
    try {
      fn();
    } catch (err) {
      logger.error({ event, err: errorText(err) }, 'after-commit hook failed');
    }
  }
}
