import { randomUUID } from 'node:crypto';
import { IMPORT_COLUMNS, IMPORT_MAX_FILE_BYTES } from '@platform/contracts';
import { waitFor } from '@platform/testing';
import { sharedSystem, type ApiResponse, type Partner, type System } from './support/system';

describe('domain imports through the gateway, with an API key', () => {
  let sys: System;
  let partner: Partner;
  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
  });
  afterAll(() => sys?.close());

  const csvFile = (hosts: string[]) => {
    const header = IMPORT_COLUMNS.map((c) => c.header).join(',');
    const rows = hosts.map((host) =>
      IMPORT_COLUMNS.map((c) =>
        c.header === 'domain'
          ? host
          : c.header === 'company legal name'
            ? `Company of ${host}`
            : c.header === 'e-mail'
              ? `owner@${host}`
              : '',
      ).join(','),
    );
    return [header, ...rows].join('\r\n');
  };

  const formOf = async (csv: string, fields: Record<string, string>) => {
    const form = new FormData();
    form.set('asset', new Blob([csv], { type: 'text/csv' }), 'domains.csv');
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    // The form's bytes (and boundary) once: a retry sends the very same request.
    const encoded = new Response(form);
    return { type: encoded.headers.get('content-type')!, bytes: new Uint8Array(await encoded.arrayBuffer()) };
  };

  const send = async (form: { type: string; bytes: Uint8Array }, headers: Record<string, string> = {}) => {
    const res = await fetch(`${sys.gateway}/portal/domains/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${partner.key}`, 'content-type': form.type, ...headers },
      body: form.bytes,
    });
    return {
      status: res.status,
      replayed: res.headers.get('idempotent-replayed'),
      body: (await res.json()) as ApiResponse['body'],
    };
  };

  it('when a partner posts a multipart csv, then the dry run plans it, the import creates its domains (source IMPORT) and its rows read back', async () => {
    const hosts = [0, 1, 2].map(() => `imp-${randomUUID().slice(0, 8)}.example.com`);
    const csv = csvFile(hosts);
    const plan = await send(await formOf(csv, { dry_run: 'true' }));
    expect(plan.status).toBe(200);
    expect(plan.body.result.counts).toMatchObject({ rows: 3, create: 3, invalid: 0 });

    const key = { 'idempotency-key': `import-${randomUUID()}` };
    const form = await formOf(csv, { mode: 'ADD', action: 'ENROLL' });
    const accepted = await send(form, key);
    expect(accepted.status).toBe(202);
    // A retry with the key (the very same bytes) replays the first answer.
    const retried = await send(form, key);
    expect(retried.status).toBe(202);
    expect(retried.replayed).toBe('true');
    expect(retried.body.result.id).toBe(accepted.body.result.id);

    const id = accepted.body.result.id as string;
    const done = await waitFor(
      async () => {
        const res = await sys.call(partner, 'GET', `/portal/domains/imports/${id}`);
        return res.body.result?.status === 'COMPLETED' ? res.body.result : undefined;
      },
      { what: 'the import to complete', timeoutMs: 30_000 },
    );
    expect(done.counts).toMatchObject({ done: 3, failed: 0 });
    const rows = await sys.call(partner, 'GET', `/portal/domains/imports/${id}/rows?limit=2`);
    expect(rows.status).toBe(200);
    expect(rows.body.meta).toEqual({ current_page: 1, next_page: 2 });
    const listed = await sys.call(partner, 'GET', '/portal/domains?source=IMPORT&limit=10');
    expect(listed.body.result.map((d: { hostname: string }) => d.hostname).sort()).toEqual([...hosts].sort());
  });

  it('when a retry builds the form again (another boundary) under the same Idempotency-Key, then it replays the first import; another file under the key is 409', async () => {
    const csv = csvFile([`imp-${randomUUID().slice(0, 8)}.example.com`]);
    const key = { 'idempotency-key': `import-${randomUUID()}` };
    const first = await formOf(csv, { mode: 'ADD' });
    const rebuilt = await formOf(csv, { mode: 'ADD' });
    expect(rebuilt.type).not.toBe(first.type);
    const accepted = await send(first, key);
    expect(accepted.status).toBe(202);
    expect(accepted.replayed).toBeNull();
    const retried = await send(rebuilt, key);
    expect(retried.status).toBe(202);
    expect(retried.replayed).toBe('true');
    expect(retried.body.result.id).toBe(accepted.body.result.id);

    const other = await send(await formOf(csvFile([`imp-${randomUUID().slice(0, 8)}.example.com`]), {}), key);
    expect(other.status).toBe(409);
    expect(other.replayed).toBeNull();
    expect(other.body.error.code).toBe('IDEMPOTENCY.KEY_REUSED');
  });

  /** `rows` rows the plan finds INVALID (no e-mail), each padded with a long ignored column to `bytes` in all. */
  const paddedCsv = (rows: number, bytes: number) => {
    const header = `${IMPORT_COLUMNS.map((c) => c.header).join(',')},notes`;
    const line = (i: number) =>
      `pad-${i}-${randomUUID().slice(0, 8)}.example.com,,Company ${i}${','.repeat(IMPORT_COLUMNS.length - 3)},`;
    const pad = Math.max(0, Math.floor((bytes - header.length) / rows) - line(0).length - 2);
    return [header, ...Array.from({ length: rows }, (_, i) => `${line(i)}${'x'.repeat(pad)}`)].join('\r\n');
  };

  it("when a 10,000-row csv of almost 10 MB is imported through the gateway, then it is accepted (the route's own upstream time-out) and stored", async () => {
    const csv = paddedCsv(10_000, IMPORT_MAX_FILE_BYTES - 64 * 1024);
    expect(csv.length).toBeGreaterThan(9.9 * 1024 * 1024);
    expect(csv.length).toBeLessThanOrEqual(IMPORT_MAX_FILE_BYTES);
    const accepted = await send(await formOf(csv, {}));
    expect(accepted.status).toBe(202);
    // Every row is INVALID (no e-mail): stored with its errors, nothing left for the job.
    expect(accepted.body.result).toMatchObject({ status: 'COMPLETED' });
    expect(accepted.body.result.counts).toMatchObject({ rows: 10_000, invalid: 10_000, pending: 0 });
    const rows = await sys.call(
      partner,
      'GET',
      `/portal/domains/imports/${accepted.body.result.id}/rows?page=100&limit=100`,
    );
    expect(rows.status).toBe(200);
    expect(rows.body.result).toHaveLength(100);
    expect(rows.body.result[99]).toMatchObject({ row: 10_001, outcome: 'INVALID' });
  });

  it('when a csv has 10,001 rows, then the gateway answers 413 IMPORT.TOO_MANY_ROWS', async () => {
    const res = await send(await formOf(paddedCsv(10_001, 0), {}));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'IMPORT.TOO_MANY_ROWS', data: { max_rows: 10_000 } });
  });

  it('when the template is downloaded through the gateway, then it is the csv of the columns', async () => {
    const res = await fetch(`${sys.gateway}/portal/domains/imports/template?format=csv`, {
      headers: { authorization: `Bearer ${partner.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await res.text()).split('\r\n')[0]).toBe(IMPORT_COLUMNS.map((c) => c.header).join(','));
  });
});
