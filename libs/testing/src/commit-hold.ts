import { Client } from 'pg';
import { waitFor } from './wait';

/** A hold on the COMMIT of the transaction that inserts one chosen row (see holdCommit). */
export interface CommitHold {
  /** Resolves once that transaction's COMMIT is waiting for the hold. */
  waiting(): Promise<void>;
  /** Lets the COMMIT finish. */
  release(): Promise<void>;
  /** Removes the trigger and ends the test's connection. */
  drop(): Promise<void>;
}

let holds = 0;

/**
 * Holds the COMMIT of the transaction that inserts a row of `table` matching `when` (SQL over
 * NEW), so a test can act at that moment, e.g. freeze the service (SIGSTOP), release the hold so
 * PostgreSQL finishes the commit on its own, and kill the frozen process: a crash between the
 * commit and the answer. A deferred constraint trigger waits, at COMMIT, for an advisory lock the
 * test holds.
 */
export async function holdCommit(databaseUrl: string, table: string, when: string): Promise<CommitHold> {
  const lock = 716_100 + holds++;
  const [schema] = table.split('.');
  const name = `test_hold_commit_${lock}`;
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`
    CREATE FUNCTION ${schema}.${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${when} THEN PERFORM pg_advisory_xact_lock_shared(${lock}); END IF;
      RETURN NULL;
    END $$`);
  await db.query(
    `CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${schema}.${name}()`,
  );
  await db.query('SELECT pg_advisory_lock($1)', [lock]);
  return {
    waiting: async () => {
      await waitFor(
        async () =>
          (await db.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [lock]))
            .rows[0],
        { timeoutMs: 10_000, what: 'the COMMIT waiting for the hold' },
      );
    },
    release: async () => void (await db.query('SELECT pg_advisory_unlock($1)', [lock])),
    drop: async () => {
      await db.query('SELECT pg_advisory_unlock_all()');
      await db.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
      await db.query(`DROP FUNCTION IF EXISTS ${schema}.${name}()`);
      await db.end();
    },
  };
}

/**
 * Sends a request and SIGKILLs the service after PostgreSQL committed the request's transaction
 * (the one `hold` holds) and before the service answered: the process is frozen while its COMMIT
 * waits, the hold is released, `committed` is polled until the commit shows, then the process is
 * killed and started again. Answers the first request's outcome (its connection was lost).
 */
export async function crashBetweenCommitAndAnswer<T>(options: {
  service: { readonly process: { child: { kill(signal: NodeJS.Signals): boolean } }; restart(): Promise<void> };
  hold: CommitHold;
  send: () => Promise<unknown>;
  committed: () => Promise<T | undefined>;
}): Promise<{ first: PromiseSettledResult<unknown>; committed: T }> {
  const { service, hold } = options;
  const first = options.send().then(
    (value): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseSettledResult<unknown> => ({ status: 'rejected', reason }),
  );
  try {
    await hold.waiting();
    service.process.child.kill('SIGSTOP');
    await hold.release();
    const committed = await waitFor(options.committed, { timeoutMs: 10_000, what: 'the commit to show' });
    await service.restart();
    return { first: await first, committed };
  } finally {
    service.process.child.kill('SIGCONT');
    await hold.drop();
  }
}

/**
 * Sends a keyed request again until its key is no longer in progress (a crashed request's claim
 * runs out), and answers the first other outcome: the replay, or the request run anew.
 */
export function retryPastInProgress<R extends { status: number; body?: unknown }>(
  send: () => Promise<R>,
  what = 'an answer to the retry',
): Promise<R> {
  return waitFor(
    async () => {
      const res = await send();
      const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
      return res.status === 409 && code === 'IDEMPOTENCY.IN_PROGRESS' ? undefined : res;
    },
    { timeoutMs: 15_000, what },
  );
}
