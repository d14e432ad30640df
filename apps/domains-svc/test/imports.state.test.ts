import { Workbook } from 'exceljs';
import { sql } from '@platform/db';
import { waitFor } from '@platform/testing';
import { createBody, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';
import { csvOf, HEADERS, importRow, postImport, workbookBomb, xlsxOf, zipOf } from './support/imports';

/**
 * POST /portal/domains/imports on a real domains-svc (Postgres, the chassis' job runner): the
 * file refused whole or planned row by row, dry runs that store nothing, and imports the job runs
 * through the create (deactivate, activate) use cases.
 */
let h: Harness;
beforeAll(async () => {
  h = await startDomainsSvc({ IMPORT_POLL_MS: '50' });
});
afterAll(async () => {
  await h?.close();
});

const stored = async (p: TestPartner) => {
  const { rows } = await sql<{ imports: number; domains: number }>`
    SELECT (SELECT count(*)::int FROM domains.imports WHERE partner_id = ${p.id}) AS imports,
           (SELECT count(*)::int FROM domains.domains WHERE partner_id = ${p.id}) AS domains`.execute(h.deps.db);
  return rows[0];
};

const completed = (p: TestPartner, id: string) =>
  waitFor(
    async () => {
      const res = await h.call(p, 'GET', `/portal/domains/imports/${id}`);
      return res.body.result?.status === 'COMPLETED' ? res.body.result : undefined;
    },
    { what: `import ${id} to complete`, timeoutMs: 30_000 },
  );

const csv = (rows: string[][]) => ({ name: 'domains.csv', data: csvOf([HEADERS, ...rows]) });

describe('imports: the template', () => {
  it('when the csv template is asked for, then it is a csv download with the columns and two example rows', async () => {
    const res = await fetch(`${h.base}/portal/domains/imports/template?format=csv`, {
      headers: { authorization: `Bearer ${h.partner().token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(HEADERS.join(','));
    expect(lines).toHaveLength(3);
  });

  it('when the xlsx template is uploaded back as a dry run, then its two example rows plan two creates', async () => {
    const p = h.partner();
    const res = await fetch(`${h.base}/portal/domains/imports/template?format=xlsx`, {
      headers: { authorization: `Bearer ${p.token}` },
    });
    expect(res.status).toBe(200);
    const data = Buffer.from(await res.arrayBuffer());
    const plan = await postImport(h.base, p, { name: 'template.xlsx', data }, { dry_run: 'true' });
    expect(plan.status).toBe(200);
    expect(plan.body.result.counts).toMatchObject({ rows: 2, create: 2, invalid: 0 });
  });
});

describe('imports: dry run', () => {
  it('when a csv has valid rows, bad rows, a duplicate and injection cells, then the plan names every row and nothing is stored', async () => {
    const p = h.partner();
    const [a, b, c] = [uniqueHost(), uniqueHost(), uniqueHost()];
    const res = await postImport(
      h.base,
      p,
      csv([
        importRow(a),
        importRow(b, { 'e-mail': 'not-an-email', country: 'XX' }),
        importRow(a.toUpperCase()),
        importRow(c, { 'company name': "=cmd|' /C calc'!A0" }),
        importRow(uniqueHost(), { city: '@SUM(1+1)' }),
        importRow(uniqueHost(), { 'owner first name': '\tx' }),
        importRow(uniqueHost(), { phone: '+44 20 7946 0000' }),
      ]),
      { dry_run: 'true', action: 'ENROLL_SCAN_REPORT' },
    );
    expect(res.status).toBe(200);
    const plan = res.body.result;
    expect(plan).toMatchObject({ dry_run: true, mode: 'ADD', action: 'ENROLL_SCAN_REPORT', file_name: 'domains.csv' });
    expect(plan.counts).toMatchObject({ rows: 7, create: 2, invalid: 5, pending: 2 });
    const byLine = (line: number) => plan.rows.find((r: { row: number }) => r.row === line);
    expect(byLine(2)).toMatchObject({ domain: a, outcome: 'CREATE', errors: [] });
    expect(byLine(3).outcome).toBe('INVALID');
    expect(
      byLine(3)
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['account_email', 'country']);
    expect(byLine(4).errors).toEqual([expect.objectContaining({ code: 'IMPORT.DUPLICATE_ROW', field: 'domain' })]);
    for (const line of [5, 6, 7])
      expect(byLine(line).errors).toEqual([expect.objectContaining({ code: 'IMPORT.CELL_REFUSED' })]);
    expect(byLine(8)).toMatchObject({ outcome: 'CREATE' });
    expect(await stored(p)).toEqual({ imports: 0, domains: 0 });
  });

  it('when an xlsx has a formula cell, then that row is refused and the others planned', async () => {
    const p = h.partner();
    const host = uniqueHost();
    const formulaRow: (string | { formula: string })[] = importRow(uniqueHost());
    formulaRow[HEADERS.indexOf('company legal name')] = { formula: 'HYPERLINK("http://127.0.0.1/x","click")' };
    const data = await xlsxOf([HEADERS.map((h) => h.toUpperCase()), importRow(host), formulaRow]);
    const res = await postImport(h.base, p, { name: 'domains.xlsx', data }, { dry_run: 'true' });
    expect(res.status).toBe(200);
    expect(res.body.result.counts).toMatchObject({ rows: 2, create: 1, invalid: 1 });
    expect(res.body.result.rows[1].errors).toEqual([
      expect.objectContaining({
        field: 'company_name',
        code: 'IMPORT.CELL_REFUSED',
        message: expect.stringMatching(/formula/),
      }),
    ]);
  });
});

describe('imports: files refused whole, nothing stored', () => {
  const refused = async (file: { name: string; data: Buffer | string }, status: number, code: string) => {
    const p = h.partner();
    const res = await postImport(h.base, p, file);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(await stored(p)).toEqual({ imports: 0, domains: 0 });
    return res.body.error;
  };

  it('when a macro-enabled workbook is sent (.xlsm, or an .xlsx holding vbaProject.bin), then 400 IMPORT.INVALID_FILE', async () => {
    const data = await xlsxOf([HEADERS, importRow(uniqueHost())]);
    expect((await refused({ name: 'm.xlsm', data }, 400, 'IMPORT.INVALID_FILE')).data.reason).toBe('macro_enabled');
    const withVba = Buffer.concat([data, Buffer.from('PK\u0003\u0004....xl/vbaProject.bin')]);
    expect((await refused({ name: 'm.xlsx', data: withVba }, 400, 'IMPORT.INVALID_FILE')).data.reason).toBe(
      'macro_enabled',
    );
  });

  it('when a malformed workbook or csv is sent, then 400 IMPORT.INVALID_FILE', async () => {
    const garbage = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    expect((await refused({ name: 'bad.xlsx', data: garbage }, 400, 'IMPORT.INVALID_FILE')).data.reason).toBe(
      'malformed',
    );
    await refused({ name: 'bad.csv', data: `${HEADERS.join(',')}\r\n"unclosed,quote\r\n` }, 400, 'IMPORT.INVALID_FILE');
    await refused({ name: 'no-domain.csv', data: 'name,email\r\nx,y\r\n' }, 400, 'IMPORT.INVALID_FILE');
  });

  it('when an xlsx sheet is 200 MB of whitespace deflated (a zip bomb), then 400 IMPORT.INVALID_FILE zip_bomb; unpadded it is planned', async () => {
    const rows = [HEADERS, importRow(uniqueHost())];
    const bomb = await workbookBomb(rows, 200 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const error = await refused({ name: 'bomb.xlsx', data: bomb }, 400, 'IMPORT.INVALID_FILE');
    expect(error).toMatchObject({ data: { reason: 'zip_bomb' }, message: expect.stringMatching(/zip bomb/) });
    const plan = await postImport(
      h.base,
      h.partner(),
      { name: 'ok.xlsx', data: await workbookBomb(rows, 0) },
      {
        dry_run: 'true',
      },
    );
    expect(plan.status).toBe(200);
    expect(plan.body.result.counts).toMatchObject({ rows: 1, create: 1 });
  });

  it('when a zip bomb declares its sheet 1 MB (the central directory lies), then its inflate is cut off and 400 zip_bomb', async () => {
    const bomb = await workbookBomb([HEADERS, importRow(uniqueHost())], 200 * 1024 * 1024, 1024 * 1024);
    const error = await refused({ name: 'liar.xlsx', data: bomb }, 400, 'IMPORT.INVALID_FILE');
    expect(error).toMatchObject({ data: { reason: 'zip_bomb' }, message: expect.stringMatching(/declares/) });
  });

  it('when a workbook zip has more than 10,000 entries, then 400 zip_bomb', async () => {
    const empty = () => [Buffer.alloc(0)];
    const data = await zipOf(Array.from({ length: 10_001 }, (_, i) => ({ name: `xl/media/${i}.bin`, chunks: empty })));
    const error = await refused({ name: 'many.xlsx', data }, 400, 'IMPORT.INVALID_FILE');
    expect(error).toMatchObject({ data: { reason: 'zip_bomb' }, message: expect.stringMatching(/10000 entries/) });
  });

  it('when the file is over 10 MB, then 413 REQUEST.TOO_LARGE', async () => {
    await refused({ name: 'big.csv', data: Buffer.alloc(10 * 1024 * 1024 + 1, 0x41) }, 413, 'REQUEST.TOO_LARGE');
  });

  it('when the file has 10,001 rows, then 413 IMPORT.TOO_MANY_ROWS (csv and xlsx)', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => importRow(`s${i}.example.com`));
    await refused(csv(rows), 413, 'IMPORT.TOO_MANY_ROWS');
    await refused({ name: 'many.xlsx', data: await xlsxOf([HEADERS, ...rows]) }, 413, 'IMPORT.TOO_MANY_ROWS');
  });

  it('when the form has a bad mode, then 400 VALIDATION.INVALID naming it; a JSON body is 415', async () => {
    const p = h.partner();
    const res = await postImport(h.base, p, csv([importRow(uniqueHost())]), { mode: 'MERGE' });
    expect(res.status).toBe(400);
    expect(res.body.error.data.issues).toEqual([expect.objectContaining({ path: 'body.mode' })]);
    const json = await h.call(p, 'POST', '/portal/domains/imports', { mode: 'ADD' });
    expect(json.status).toBe(415);
    expect(await stored(p)).toEqual({ imports: 0, domains: 0 });
  });
});

describe('imports: ADD', () => {
  it('when a csv names a new domain, one the partner has and an invalid row, then the job creates the new one only (source IMPORT, its domain.created, its scan queued)', async () => {
    const p = h.partner();
    const existing = uniqueHost();
    expect((await h.call(p, 'POST', '/portal/domains', createBody(existing))).status).toBe(200);
    const [a, b] = [uniqueHost(), uniqueHost()];
    const res = await postImport(h.base, p, csv([importRow(a), importRow(existing), importRow(b, { 'e-mail': 'x' })]), {
      action: 'ENROLL_SCAN_REPORT',
    });
    expect(res.status).toBe(202);
    expect(res.body.result).toMatchObject({
      dry_run: false,
      status: 'QUEUED',
      mode: 'ADD',
      action: 'ENROLL_SCAN_REPORT',
    });
    expect(res.body.result.created_by).toMatchObject({ type: 'API_KEY' });
    const done = await completed(p, res.body.result.id);
    expect(done.counts).toMatchObject({ rows: 3, create: 1, unchanged: 1, invalid: 1, done: 1, pending: 0, failed: 0 });
    const { rows } = await sql<{ hostname: string; source: string; scans: number }>`
      SELECT d.hostname, d.source, (SELECT count(*)::int FROM domains.scans s WHERE s.domain_id = d.id) AS scans
      FROM domains.domains d WHERE d.partner_id = ${p.id} ORDER BY d.hostname`.execute(h.deps.db);
    expect(rows.find((r) => r.hostname === a)).toMatchObject({ source: 'IMPORT', scans: 1 });
    expect(rows).toHaveLength(2);
    const created = await h.outbox(p.id, 'domain.created');
    expect(created.map((e) => String(e.message.payload.params.domain)).sort()).toEqual([existing, a].sort());
  });

  it('when an xlsx import runs, then its rows read back paginated with each result', async () => {
    const p = h.partner();
    const hosts = [uniqueHost(), uniqueHost(), uniqueHost()];
    const data = await xlsxOf([HEADERS, ...hosts.map((x) => importRow(x))]);
    const res = await postImport(h.base, p, { name: 'd.xlsx', data });
    expect(res.status).toBe(202);
    await completed(p, res.body.result.id);
    const first = await h.call(p, 'GET', `/portal/domains/imports/${res.body.result.id}/rows?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ current_page: 1, next_page: 2 });
    expect(first.body.result.map((r: { row: number }) => r.row)).toEqual([2, 3]);
    expect(first.body.result[0]).toMatchObject({ domain: hosts[0], outcome: 'CREATE', state: 'DONE', errors: [] });
    expect(first.body.result[0].domain_id).toEqual(expect.any(String));
    const second = await h.call(p, 'GET', `/portal/domains/imports/${res.body.result.id}/rows?limit=2&page=2`);
    expect(second.body.meta).toEqual({ current_page: 2, prev_page: 1 });
    // Another partner's import is not found.
    expect((await h.call(h.partner(), 'GET', `/portal/domains/imports/${res.body.result.id}`)).status).toBe(404);
  });
});

describe('imports: a keyed import', () => {
  it('when the same import is sent twice with one Idempotency-Key, then one import is stored and the retry replays it', async () => {
    const p = h.partner();
    const file = csv([importRow(uniqueHost())]);
    const key = { 'idempotency-key': `import-${uniqueHost()}` };
    const first = await postImport(h.base, p, file, {}, key);
    const again = await postImport(h.base, p, file, {}, key);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.result.id).toBe(first.body.result.id);
    expect((await stored(p)).imports).toBe(1);
    const other = await postImport(h.base, p, csv([importRow(uniqueHost())]), {}, key);
    expect(other.body.error.code).toBe('IDEMPOTENCY.KEY_REUSED');
  });
});

describe('imports: SYNC', () => {
  it('when a SYNC file names an ACTIVE, an INACTIVE and a new domain, then it reactivates, creates, and deactivates the ACTIVE one it does not name', async () => {
    const p = h.partner();
    const hosts = {
      kept: uniqueHost(),
      back: uniqueHost(),
      gone: uniqueHost(),
      fresh: uniqueHost(),
      young: uniqueHost(),
    };
    const ids: Record<string, string> = {};
    for (const name of ['kept', 'back', 'gone', 'young'] as const)
      ids[name] = (await h.call(p, 'POST', '/portal/domains', createBody(hosts[name]))).body.result.id;
    await h.setStatus(ids.kept, 'ACTIVE');
    await h.setStatus(ids.gone, 'ACTIVE');
    await h.setStatus(ids.back, 'INACTIVE');
    const file = csv([importRow(hosts.kept), importRow(hosts.back), importRow(hosts.fresh)]);
    const plan = await postImport(h.base, p, file, { mode: 'SYNC', dry_run: 'true' });
    expect(plan.body.result.counts).toMatchObject({ rows: 3, create: 1, reactivate: 1, deactivate: 1, unchanged: 1 });
    expect(plan.body.result.rows.at(-1)).toMatchObject({ row: null, domain: hosts.gone, outcome: 'DEACTIVATE' });
    const res = await postImport(h.base, p, file, { mode: 'SYNC' });
    expect(res.status).toBe(202);
    expect((await completed(p, res.body.result.id)).counts).toMatchObject({ done: 3, failed: 0 });
    const { rows } = await sql<{ hostname: string; status: string }>`
      SELECT hostname, status FROM domains.domains WHERE partner_id = ${p.id}`.execute(h.deps.db);
    const status = Object.fromEntries(rows.map((r) => [r.hostname, r.status]));
    expect(status).toEqual({
      [hosts.kept]: 'ACTIVE',
      [hosts.back]: 'ACTIVE',
      [hosts.gone]: 'INACTIVE',
      [hosts.fresh]: 'NEW',
      // NEW is not ACTIVE: the deactivate move does not take it.
      [hosts.young]: 'NEW',
    });
    expect((await h.outbox(p.id, 'domain.deactivated')).length).toBe(1);
  });
});

describe('imports: permissions', () => {
  it('when a key without domains:write posts an import, then 403; with domains:read it reads the template', async () => {
    const reader = h.partner([], ['domains:read']);
    const res = await postImport(h.base, reader, csv([importRow(uniqueHost())]));
    expect(res.status).toBe(403);
    const template = await fetch(`${h.base}/portal/domains/imports/template`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(template.status).toBe(200);
    // The xlsx template opens in exceljs with the template's header row.
    const wb = new Workbook();
    const xlsx = await fetch(`${h.base}/portal/domains/imports/template?format=xlsx`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    await wb.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
    expect(wb.worksheets[0].getRow(1).values).toEqual([undefined, ...HEADERS]);
  });
});
