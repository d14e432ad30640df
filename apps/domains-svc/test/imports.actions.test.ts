import type { ScanFindings } from '@platform/contracts';
import { sql } from '@platform/db';
import { waitFor } from '@platform/testing';
import type { ScanEngine } from '../src/scanner/scan-worker';
import { startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';
import { csvOf, HEADERS, importRow, postImport } from './support/imports';

/**
 * The import's action (ENROLL, ENROLL_SCAN, ENROLL_SCAN_REPORT) on a real domains-svc, its job and
 * scanner role: the engine is replaced at its port by a site that always answers with one cookie.
 */
const counts: ScanFindings['counts'] = { necessary: 0, functional: 0, analytics: 1, marketing: 0, unclassified: 0 };
const engine: ScanEngine = {
  scan: async ({ hostname }) => ({
    mode: 'http',
    failed: false,
    pages: [`https://${hostname}/`],
    findings: {
      scripts: [],
      cookies: [
        {
          name: '_ga',
          domain: `.${hostname}`,
          expires_at: null,
          first_party: true,
          category: 'analytics',
          vendor: null,
        },
      ],
      iframes: [],
      counts,
    },
    errors: [],
  }),
  close: async () => undefined,
};

let h: Harness;
beforeAll(async () => {
  h = await startDomainsSvc({ IMPORT_POLL_MS: '50' }, { scanEngine: () => engine });
});
afterAll(() => h?.close());

/** Imports one new domain with the action and waits for the import to complete; its domain. */
async function importOne(p: TestPartner, action?: string) {
  const host = uniqueHost();
  const res = await postImport(
    h.base,
    p,
    { name: 'd.csv', data: csvOf([HEADERS, importRow(host)]) },
    action ? { action } : {},
  );
  expect(res.status).toBe(202);
  expect(res.body.result.action).toBe(action ?? 'ENROLL');
  await waitFor(
    async () =>
      (await h.call(p, 'GET', `/portal/domains/imports/${res.body.result.id}`)).body.result?.status === 'COMPLETED',
    { what: 'the import to complete', timeoutMs: 30_000 },
  );
  const { rows } = await sql<{ id: string; action: string; status: string }>`
    SELECT id, action, status FROM domains.domains WHERE partner_id = ${p.id} AND hostname = ${host}`.execute(
    h.deps.db,
  );
  expect(rows).toHaveLength(1);
  return { host, ...rows[0] };
}

const scansOf = async (domainId: string) =>
  (
    await sql<{ requested_by: string; status: string }>`
      SELECT requested_by, status FROM domains.scans WHERE domain_id = ${domainId}`.execute(h.deps.db)
  ).rows;
const scanEnded = (domainId: string) =>
  waitFor(
    async () => {
      const scans = await scansOf(domainId);
      return scans.length === 1 && scans[0].status === 'completed' ? scans[0] : undefined;
    },
    { what: 'the scan to complete' },
  );
/** The mail queued for the partner (a report is queued in the scan's completing transaction). */
const mailKinds = async (p: TestPartner) =>
  (
    await sql<{ kind: string }>`SELECT kind FROM domains.mail_queue WHERE partner_id = ${p.id}`.execute(h.deps.db)
  ).rows.map((r) => r.kind);

describe('imports: the action', () => {
  it('when no action is given (ENROLL), then the domain is created CREATE_SILENT with no scan and no e-mail', async () => {
    const p = h.partner();
    const d = await importOne(p);
    expect(d.action).toBe('CREATE_SILENT');
    // The create queues its scan in its own statement: none now means none at all.
    expect(await scansOf(d.id)).toEqual([]);
    expect(await mailKinds(p)).toEqual([]);
  });

  it('when the action is ENROLL_SCAN, then the domain is scanned (requested_by IMPORT) and the owner gets no report', async () => {
    const p = h.partner();
    const d = await importOne(p, 'ENROLL_SCAN');
    expect(d.action).toBe('CREATE_SILENT');
    expect(await scanEnded(d.id)).toMatchObject({ requested_by: 'IMPORT' });
    expect(await mailKinds(p)).toEqual([]);
    expect((await h.call(p, 'GET', `/portal/domains/${d.id}`)).body.result.status).toBe('SCANNED');
  });

  it('when the action is ENROLL_SCAN_REPORT, then the domain is scanned (requested_by SCAN) and the owner gets the report e-mail', async () => {
    const p = h.partner();
    const d = await importOne(p, 'ENROLL_SCAN_REPORT');
    expect(d.action).toBe('SCAN');
    expect(await scanEnded(d.id)).toMatchObject({ requested_by: 'SCAN' });
    expect(await mailKinds(p)).toEqual(['scan-report']);
    const mail = await h.smtp.waitForMessage((m) => m.to.includes(`owner@${d.host}`));
    expect(mail.subject).toBe(`Scan report for ${d.host}`);
  });

  it('when the action is a create action (SCAN), then it answers 400 on body.action', async () => {
    const p = h.partner();
    const res = await postImport(
      h.base,
      p,
      { name: 'd.csv', data: csvOf([HEADERS, importRow(uniqueHost())]) },
      {
        action: 'SCAN',
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.data.issues).toEqual([expect.objectContaining({ path: 'body.action' })]);
  });
});
