import { sql } from '@platform/db';
import { createLogger } from '@platform/observability';
import { waitFor } from '@platform/testing';
import { runImportRows, type ImportJobOptions } from '../src/imports/import-rows.job';
import { claimImportRows } from '../src/imports/imports.repository';
import { startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';
import { csvOf, HEADERS, importRow, postImport } from './support/imports';

/**
 * The import job under failure: a worker that dies holding rows, one stopped mid-run, workers
 * racing for rows whose leases ran out. The service's own job is held off (its poll is an hour
 * away) so the test decides which workers run, each on the service's real context.
 */
let h: Harness;
const logger = createLogger('imports-test', 'silent');
beforeAll(async () => {
  h = await startDomainsSvc({ IMPORT_POLL_MS: '3600000' });
});
afterAll(async () => {
  await h?.close();
});

const hosts = (n: number) => Array.from({ length: n }, () => uniqueHost());
const importOf = async (p: TestPartner, names: string[]) => {
  const res = await postImport(h.base, p, { name: 'd.csv', data: csvOf([HEADERS, ...names.map((x) => importRow(x))]) });
  expect(res.status).toBe(202);
  return res.body.result.id as string;
};

const state = async (p: TestPartner, importId: string) => {
  const { rows } = await sql<{
    status: string;
    done: number;
    pending: number;
    domains: number;
    created: number;
    distinct_ids: number;
    claims: number;
  }>`
    SELECT i.status,
      (SELECT count(*)::int FROM domains.import_rows r WHERE r.import_id = i.id AND r.state = 'DONE') AS done,
      (SELECT count(*)::int FROM domains.import_rows r WHERE r.import_id = i.id AND r.state = 'PENDING') AS pending,
      (SELECT count(DISTINCT r.domain_id)::int FROM domains.import_rows r WHERE r.import_id = i.id) AS distinct_ids,
      (SELECT coalesce(sum(r.attempts), 0)::int FROM domains.import_rows r WHERE r.import_id = i.id) AS claims,
      (SELECT count(*)::int FROM domains.domains d WHERE d.partner_id = ${p.id}) AS domains,
      (SELECT count(*)::int FROM domains.outbox o WHERE o.message->>'partner_id' = ${p.id} AND o.routing_key = 'domain.created') AS created
    FROM domains.imports i WHERE i.id = ${importId}`.execute(h.deps.db);
  return rows[0];
};

/** Runs workers (each a fresh run of the job) until the import completes, within a deadline. */
const runUntilCompleted = (p: TestPartner, importId: string, options: ImportJobOptions) =>
  waitFor(
    async () => {
      await runImportRows(h.context, options, logger, new AbortController().signal);
      const now = await state(p, importId);
      return now.status === 'COMPLETED' ? now : undefined;
    },
    { what: 'the import to complete', timeoutMs: 60_000, intervalMs: 100 },
  );

describe('imports: the job resumes and never runs a row twice', () => {
  it('when a worker dies holding rows and another is stopped mid-run, then a new worker finishes the import with each domain created once', async () => {
    const p = h.partner();
    const importId = await importOf(p, hosts(40));
    const options = { pollMs: 50, batch: 5, leaseMs: 1_500 };
    // A worker that claimed ten rows and died before running them: they stay leased until the lease ends.
    expect(await claimImportRows(h.deps.db, 10, options.leaseMs)).toHaveLength(10);
    // A worker stopped (its runtime shutting down) after a few rows.
    const stop = new AbortController();
    const running = runImportRows(h.context, options, logger, stop.signal);
    await waitFor(async () => (await state(p, importId)).done >= 5, { what: 'five rows done' });
    stop.abort();
    await running;
    const stopped = await state(p, importId);
    expect(stopped.status).toBe('RUNNING');
    expect(stopped.pending).toBeGreaterThan(0);
    // No row is half done: a domain for every DONE row, and one domain.created each.
    expect(stopped.domains).toBe(stopped.done);
    expect(stopped.created).toBe(stopped.done);

    const finished = await runUntilCompleted(p, importId, options);
    expect(finished).toMatchObject({ done: 40, pending: 0, domains: 40, created: 40, distinct_ids: 40 });
  });

  it('when two more workers claim the rows a running worker holds (its leases ran out), then every row runs once', async () => {
    const p = h.partner();
    const importId = await importOf(p, hosts(30));
    // A lease of 1 ms: every claimed row is due again at once, so the others claim the rows the first holds.
    const options = { pollMs: 50, batch: 30, leaseMs: 1 };
    const run = () => runImportRows(h.context, options, logger, new AbortController().signal);
    const first = run();
    await waitFor(async () => (await state(p, importId)).done >= 1, { what: 'the first worker to run a row' });
    await Promise.all([first, run(), run()]);
    const finished = await runUntilCompleted(p, importId, options);
    expect(finished).toMatchObject({ done: 30, domains: 30, created: 30, distinct_ids: 30 });
    // Rows were held by more than one worker at once, yet none ran twice.
    expect(finished.claims).toBeGreaterThan(30);
  });
});
