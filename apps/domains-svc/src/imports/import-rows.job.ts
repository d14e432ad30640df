import {
  createDomainBodySchema,
  IMPORT_ACTION_CREATES,
  type ErrorObject,
  type ImportAction,
  type ImportRowError,
} from '@platform/contracts';
import { SharedTransaction } from '@platform/db';
import { AppError, issuesOf, validationError } from '@platform/http';
import type { JobDefinition } from '@platform/jobs';
import type { Logger } from '@platform/observability';
import type { DomainsContext } from '../context';
import type { DomainsDb } from '../db/tables';
import { createDomain } from '../domains/domain/create-domain.service';
import { activateDomain, deactivateDomain } from '../domains/domain/lifecycle.service';
import {
  claimImportRows,
  completeImports,
  finishRow,
  markImportsRunning,
  releaseRows,
  type ClaimedRow,
} from './imports.repository';

export interface ImportJobOptions {
  pollMs: number;
  batch: number;
  leaseMs: number;
  /** Rows run at once (default 1), each in its own transaction. */
  concurrency?: number;
  /** A row whose change keeps failing for a reason that is not its own (5xx) is FAILED after this many claims. */
  maxAttempts?: number;
}

/**
 * Runs the PENDING rows of every import (api role; any number of instances): claims a batch
 * (FOR UPDATE SKIP LOCKED with a lease), runs each row, and completes the imports left with none.
 */
export const importRowsJob = (
  ctx: DomainsContext,
  options: ImportJobOptions,
  logger: Logger,
): JobDefinition<DomainsDb> => ({
  name: 'domain-imports',
  intervalMs: options.pollMs,
  // Well inside the lease: a run the runner gives up on stops between rows and hands the rest back.
  deadlineMs: Math.max(1_000, Math.floor(options.leaseMs / 2)),
  run: ({ signal }) => runImportRows(ctx, options, logger, signal),
});

/** Claims and runs rows (`concurrency` at once) until none are due or the signal aborts; rows not started are handed back (due at once). */
export async function runImportRows(
  ctx: DomainsContext,
  options: ImportJobOptions,
  logger: Logger,
  signal: AbortSignal,
) {
  while (!signal.aborted) {
    const rows = await claimImportRows(ctx.db, options.batch, options.leaseMs);
    if (rows.length === 0) return;
    const imports = [...new Set(rows.map((r) => r.import_id))];
    await markImportsRunning(ctx.db, imports);
    // A few runners take the rows in turn; once the signal aborts none starts another.
    let next = 0;
    const runner = async () => {
      while (next < rows.length && !signal.aborted) await runRow(ctx, rows[next++], options, logger);
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 1, rows.length) }, runner));
    await releaseRows(
      ctx.db,
      rows.slice(next).map((r) => r.id),
    );
    await completeImports(ctx.db, imports);
  }
}

/**
 * One row, once: the row is marked DONE in the same transaction as its domain's create
 * (reactivate, deactivate), by the same use cases as the partner's routes (domain.created and the
 * action's scan and e-mail go out through the outbox and mail queue). The mark only takes a
 * PENDING row, and its lock holds a second worker (whose lease ran out) until this one commits:
 * that one then finds it DONE and changes nothing. A failure of the row's own (4xx) marks it
 * FAILED with the reason; any other is tried again after the lease, up to maxAttempts.
 */
async function runRow(ctx: DomainsContext, row: ClaimedRow, options: ImportJobOptions, logger: Logger) {
  const shared = new SharedTransaction(ctx.db);
  try {
    await shared.run(async () => {
      if (!(await finishRow(ctx.db, row.id, { state: 'DONE' }))) return;
      const domainId = await applyRow(ctx, row);
      await finishRowDomain(ctx, row.id, domainId);
    });
    await shared.commit();
  } catch (err) {
    await shared.rollback();
    const own = err instanceof AppError ? err.toErrorObject() : undefined;
    if ((!own || own.status >= 500) && row.attempts < (options.maxAttempts ?? 5)) {
      logger.warn({ err, importId: row.import_id, rowId: row.id }, 'import row failed; retried after its lease');
      return;
    }
    await finishRow(ctx.db, row.id, { state: 'FAILED', errors: rowErrorsOf(own) });
  }
}

/** A row's failure as its errors: a validation failure's issues one by one, else the code and message. */
function rowErrorsOf(failure: ErrorObject | undefined): ImportRowError[] {
  if (!failure || failure.status >= 500)
    return [{ code: 'SERVER.INTERNAL', message: 'The row could not be run; import it again.' }];
  const issues = (failure.data?.issues ?? []) as { path: string; message: string }[];
  if (failure.code === 'VALIDATION.INVALID' && issues.length > 0)
    return issues.map((i) => ({ field: i.path.replace(/^body\./, ''), code: failure.code, message: i.message }));
  return [{ code: failure.code, message: failure.message }];
}

/** The row's change by the partner routes' own use cases; the domain it made or changed. */
async function applyRow(ctx: DomainsContext, row: ClaimedRow): Promise<string> {
  if (row.outcome === 'CREATE') {
    const body = createDomainBodySchema.safeParse(row.input);
    if (!body.success) throw validationError(issuesOf(body.error, ['body']));
    const created = await createDomain(
      ctx,
      {
        partnerId: row.partner_id,
        requiredFields: row.caller.requiredFields,
        defaults: row.caller.defaults,
        source: 'IMPORT',
      },
      body.data,
      // The body holds the create's action; a scan that action has no name for (ENROLL_SCAN) comes from the import's.
      { scan: IMPORT_ACTION_CREATES[row.action as ImportAction]?.scan },
    );
    return created.id;
  }
  if (row.outcome === 'REACTIVATE') await activateDomain(ctx, row.partner_id, row.domain_id!);
  else if (row.outcome === 'DEACTIVATE') await deactivateDomain(ctx, row.partner_id, row.domain_id!);
  else throw new Error(`import row ${row.id}: nothing to run for ${row.outcome}`);
  return row.domain_id!;
}

const finishRowDomain = (ctx: DomainsContext, id: string, domainId: string) =>
  ctx.db.updateTable('import_rows').set({ domain_id: domainId }).where('id', '=', id).execute();
