import { LiveProperties } from '../src/domain/live-properties';
import { startConsent, type ConsentTest } from './support';

describe('live properties for receipts: remembered for a moment, then read again', () => {
  let c: ConsentTest;
  beforeAll(async () => {
    c = await startConsent();
  });
  afterAll(() => c?.close());

  it('when a property is found, then it is remembered for the TTL (no query) and read again after it; a deleted one is then gone', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    let now = 1_000_000;
    const properties = new LiveProperties(c.db, 1_000, () => now);
    expect((await properties.find(domain.property_id))?.hostname).toBe(domain.hostname);

    await c.db.updateTable('properties').set({ deleted: true }).where('property_id', '=', domain.property_id).execute();
    now += 999;
    expect((await properties.find(domain.property_id))?.hostname).toBe(domain.hostname);
    now += 2;
    expect(await properties.find(domain.property_id)).toBeUndefined();
  });

  it('when the TTL is 0, then every find reads the projection', async () => {
    const p = c.partner();
    const domain = await c.domain(p.id);
    const properties = new LiveProperties(c.db, 0, () => 0);
    expect(await properties.find(domain.property_id)).toBeDefined();
    await c.db.updateTable('properties').set({ deleted: true }).where('property_id', '=', domain.property_id).execute();
    expect(await properties.find(domain.property_id)).toBeUndefined();
  });
});
