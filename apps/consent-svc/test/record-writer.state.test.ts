import { randomUUID } from 'node:crypto';
import { createDb } from '@platform/db';
import { testInfra } from '@platform/testing';
import { RecordWriter } from '../src/db/record-writer';
import type { RecordRow } from '../src/db/records.repository';
import { SCHEMA, type ConsentDb } from '../src/db/tables';
import { startConsent, type ConsentTest } from './support';

describe('receipts stored by group commit', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  const propertyId = () => `PROP_${randomUUID()}`;
  const row = (property: string, nonce: string, overrides: Partial<RecordRow> = {}): RecordRow => ({
    id: `RCPT_${randomUUID().replaceAll('-', '')}`,
    partner_id: 'writer-partner',
    property_id: property,
    domain_id: 'writer-domain',
    receipt_type: 'COOKIE_CONSENT',
    receipt_status: 'ALLOWED',
    body: JSON.stringify({ nonce }),
    signature: 'sig',
    nonce,
    created_at: new Date().toISOString(),
    regime: 'OPT_IN',
    ...overrides,
  });
  const storedNonces = async (property: string) =>
    (await c.db.selectFrom('records').select('nonce').where('property_id', '=', property).execute())
      .map((r) => r.nonce)
      .sort();
  const outcome = (p: Promise<void>) =>
    p.then(
      () => 'stored',
      (err: { code?: string }) => err.code ?? String(err),
    );

  it('when 300 receipts arrive at once, then each is answered only once stored, and they go in a few inserts rather than 300', async () => {
    const writer = new RecordWriter(c.db, { maxInFlight: 2, maxBatch: 100 });
    const property = propertyId();
    const nonces = Array.from({ length: 300 }, (_, i) => `n-${String(i).padStart(3, '0')}`);
    const answers = await Promise.all(nonces.map((n) => outcome(writer.write(row(property, n)))));
    expect(answers).toEqual(nonces.map(() => 'stored'));
    expect(await storedNonces(property)).toEqual(nonces);
    expect(writer.totals.rows).toBe(300);
    expect(writer.totals.inserts).toBeLessThanOrEqual(6);
  });

  it('when a nonce repeats within one group and against a stored row, then exactly one is stored and every repeat is RECEIPT.REPLAYED', async () => {
    const writer = new RecordWriter(c.db, { maxInFlight: 1, maxBatch: 50 });
    const property = propertyId();
    await writer.write(row(property, 'already'));
    const answers = await Promise.all([
      outcome(writer.write(row(property, 'twice'))),
      outcome(writer.write(row(property, 'twice'))),
      outcome(writer.write(row(property, 'already'))),
      outcome(writer.write(row(propertyId(), 'twice'))),
    ]);
    expect(answers).toEqual(['stored', 'RECEIPT.REPLAYED', 'RECEIPT.REPLAYED', 'stored']);
    expect(await storedNonces(property)).toEqual(['already', 'twice']);
  });

  it('when one row of a group cannot be stored, then only that receipt fails and the others of its group are stored', async () => {
    const writer = new RecordWriter(c.db, { maxInFlight: 1, maxBatch: 50 });
    const property = propertyId();
    const first = writer.write(row(property, 'first'));
    const group = ['a', 'bad', 'b'].map((n) =>
      outcome(writer.write(row(property, n, n === 'bad' ? { created_at: 'not a time' } : {}))),
    );
    await first;
    const answers = await Promise.all(group);
    expect(answers[0]).toBe('stored');
    expect(answers[1]).not.toBe('stored');
    expect(answers[2]).toBe('stored');
    expect(await storedNonces(property)).toEqual(['a', 'b', 'first']);
  });

  it('when the database cannot be reached, then every receipt of the group fails with that error, and no row is retried alone', async () => {
    const { db, pool } = createDb<ConsentDb>({
      url: `${(await testInfra()).databaseUrl.replace(/\/[^/]*$/, '')}/no_such_database_${Date.now()}`,
      schema: SCHEMA,
    });
    try {
      const writer = new RecordWriter(db, { maxInFlight: 1, maxBatch: 50 });
      const property = propertyId();
      const answers = await Promise.all(
        ['a', 'b', 'c'].map((n) =>
          writer.write(row(property, n)).then(
            () => 'stored',
            (err: { code?: string }) => err.code,
          ),
        ),
      );
      expect(answers).toEqual(['3D000', '3D000', '3D000']);
      // The first alone, then the other two as one group: two inserts, none row by row.
      expect(writer.totals).toEqual({ inserts: 2, rows: 3 });
    } finally {
      await pool.end();
    }
  });
});
