import { startDomainsSvc, uniqueHost, type Harness } from './support/harness';
import { csvOf, HEADERS, importRow, postImport } from './support/imports';

/**
 * A large import on a real domains-svc (the bench runs 10,000 rows through the gateway): the job
 * completes it, and its status and rows answer quickly while it runs and after.
 */
let h: Harness;
beforeAll(async () => {
  h = await startDomainsSvc({ IMPORT_POLL_MS: '50' });
});
afterAll(() => h?.close());

const ROWS = 1_000;
/** Far above the few ms these reads take (an index read of one import's rows), far below a hang. */
const QUICK_MS = 1_000;

const timed = async <T>(fn: () => Promise<T>) => {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
};

describe('imports: a large file', () => {
  it(`when ${ROWS} rows are imported, then the job completes them all and GET answers quickly throughout`, async () => {
    const p = h.partner();
    const csv = csvOf([HEADERS, ...Array.from({ length: ROWS }, () => importRow(uniqueHost()))]);
    const res = await postImport(h.base, p, { name: 'big.csv', data: csv });
    expect(res.status).toBe(202);
    const id = res.body.result.id as string;
    const slowest = { status: 0, rows: 0 };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await timed(() => h.call(p, 'GET', `/portal/domains/imports/${id}`));
      const rows = await timed(() => h.call(p, 'GET', `/portal/domains/imports/${id}/rows?page=10&limit=100`));
      expect(status.value.status).toBe(200);
      expect(rows.value.body.result).toHaveLength(100);
      slowest.status = Math.max(slowest.status, status.ms);
      slowest.rows = Math.max(slowest.rows, rows.ms);
      const result = status.value.body.result;
      if (result.status === 'COMPLETED') {
        expect(result.counts).toMatchObject({ rows: ROWS, create: ROWS, done: ROWS, pending: 0, failed: 0 });
        break;
      }
      if (Date.now() > deadline) throw new Error(`import not completed in 60 s: ${JSON.stringify(result.counts)}`);
      // Polling with a deadline (the job runs meanwhile); each poll is itself the read under test.
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(slowest.status).toBeLessThan(QUICK_MS);
    expect(slowest.rows).toBeLessThan(QUICK_MS);
  });
});
