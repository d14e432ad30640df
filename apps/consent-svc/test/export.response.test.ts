import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ConsentRecord } from '@platform/contracts';
import { envelope } from '@platform/testing';
import { seedRecords } from './export-seed';
import { startConsent, type ConsentTest } from './support';

const EXPORT = '/portal/instance/company/records/export';
const MB = 1024 * 1024;

// A full collection on demand, so what the export keeps (not the garbage it leaves) is measured.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const retainedHeap = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

/**
 * Reads an export as it comes, never holding it: counts its lines and bytes, keeps the first few
 * lines, and measures (every 200 pieces) the heap still in use after a full collection: the
 * service and this reader share the process, so a service that held the records would show here.
 */
async function readExport(url: string, token: string, keep = 3) {
  const startHeap = retainedHeap();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  let peakHeap = startHeap;
  let pieces = 0;
  let lines = 0;
  let bytes = 0;
  let head = '';
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const piece of res.body as AsyncIterable<Uint8Array>) {
    bytes += piece.length;
    for (const b of piece) if (b === 10) lines += 1;
    if (head.split('\n').length <= keep) head += decoder.decode(piece, { stream: true });
    if (++pieces % 200 === 0) peakHeap = Math.max(peakHeap, retainedHeap());
  }
  return { res, lines, bytes, pieces, first: head.split('\n').slice(0, keep), growthMb: (peakHeap - startHeap) / MB };
}

describe('GET /portal/instance/company/records/export (streamed NDJSON or CSV)', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent({ EXPORT_PAGE_SIZE: '1000' });
  });
  afterAll(() => c?.close());

  const url = (q: string) => `${c.t.url}${EXPORT}?${q}`;

  it('when 100,000 records are exported as NDJSON, then every one comes, oldest first, as a signed record, and memory stays bounded', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const where = { partnerId: p.id, propertyId: domain.property_id, domainId: domain.id };
    await seedRecords(c.db, where, 100_000, new Date('2026-03-01T00:00:00Z'), 500);
    // Outside the range: the day before and the day after.
    await seedRecords(c.db, where, 2, new Date('2026-02-28T23:59:59Z'), 0);
    await seedRecords(c.db, where, 2, new Date('2026-03-03T00:00:00Z'), 0);

    const out = await readExport(url(`domain_id=${domain.id}&from=2026-03-01&to=2026-03-02`), c.tokenFor(p.id));
    expect(out.res.status).toBe(200);
    expect(out.res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(out.res.headers.get('transfer-encoding')).toBe('chunked');
    expect(out.res.headers.get('content-disposition')).toBe(
      'attachment; filename="consent-records-2026-03-01-2026-03-02.ndjson"',
    );
    expect(out.lines).toBe(100_000);
    const [first, second] = out.first.map((line) => JSON.parse(line) as ConsentRecord);
    expect(first).toMatchObject({
      receipt_type: 'COOKIE_CONSENT',
      property_id: domain.property_id,
      subject: 'visitor-0',
    });
    expect(first.created_at).toBe('2026-03-01T00:00:00.000Z');
    expect(second.created_at).toBe('2026-03-01T00:00:00.500Z');
    expect(first.signature).toBe('sig-0');
    // About 1 KB a record: 100 MB went through in many pieces, while the heap kept about a page's worth.
    expect(out.bytes).toBeGreaterThan(90 * MB);
    expect(out.pieces).toBeGreaterThan(100);
    expect(out.growthMb).toBeLessThan(16);
  }, 120_000);

  it('when exported as CSV, then a BOM and header, a row per record, and a merchant exports its domains one after the other', async () => {
    const p = c.partner();
    const first = await c.domain(p.id, { merchants: ['m-exp'] });
    const second = await c.domain(p.id, { merchants: ['m-exp'] });
    await seedRecords(
      c.db,
      { partnerId: p.id, propertyId: first.property_id, domainId: first.id },
      3,
      new Date('2026-04-01T10:00:00Z'),
    );
    await seedRecords(
      c.db,
      { partnerId: p.id, propertyId: second.property_id, domainId: second.id },
      2,
      new Date('2026-04-01T09:00:00Z'),
    );
    const out = await readExport(
      url('merchant_id=m-exp&from=2026-04-01&to=2026-04-01&format=csv'),
      c.tokenFor(p.id),
      10,
    );
    expect(out.res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = out.first.filter((line) => line !== '');
    expect(rows[0]).toBe(
      '\uFEFFreceipt_id,created_at,receipt_type,receipt_status,granted,denied,gpc,country,region,jurisdiction,property_id,subject,consent_revision,widget_version\r',
    );
    expect(rows).toHaveLength(6);
    expect(rows[1]).toMatch(
      /^RCPT_\w+,2026-04-01T\d\d:00:00\.000Z,COOKIE_CONSENT,ALLOWED,necessary functional analytics marketing,,true,DE,Berlin,GDPR,/,
    );
    const byProperty = rows.slice(1).map((r) => r.split(',')[10]);
    // Domain by domain in id order, each oldest first (the second domain's records are older).
    const [a, b] = [
      { d: first, n: 3 },
      { d: second, n: 2 },
    ].sort((x, y) => x.d.id.localeCompare(y.d.id));
    expect(byProperty).toEqual([...Array(a.n).fill(a.d.property_id), ...Array(b.n).fill(b.d.property_id)]);
    const times = rows.slice(1).map((r) => r.split(',')[1]);
    expect(times.slice(0, a.n)).toEqual([...times.slice(0, a.n)].sort());
  });

  it("when the domain is another partner's or unknown, then 404; a bad query is 400", async () => {
    const p = c.partner();
    const foreign = await c.domain(c.partner().id);
    for (const q of [`domain_id=${foreign.id}`, `domain_id=${randomUUID()}`]) {
      const res = await p.get(`${EXPORT}?${q}&from=2026-01-01&to=2026-01-02`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    }
    for (const q of [
      'from=2026-01-01&to=2026-01-02',
      'domain_id=d&from=x&to=2026-01-02',
      'domain_id=d&from=2026-01-02&to=2026-01-01',
      'domain_id=d&from=2026-01-01&to=2026-01-02&format=xml',
    ]) {
      const res = await p.get(`${EXPORT}?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION.INVALID');
    }
  });
});
