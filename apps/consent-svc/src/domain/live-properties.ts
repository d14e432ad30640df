import type { Kysely } from '@platform/db';
import { findLiveProperty, type PropertyRow } from '../db/properties.repository';
import type { ConsentDb } from '../db/tables';

/** How long a live property is remembered. The projection itself trails domains-svc by its events' lag; this adds at most this much. */
export const LIVE_PROPERTY_TTL_MS = 1_000;
const MAX_REMEMBERED = 20_000;

/**
 * Live properties by id, remembered for a moment: a site's receipts then cost one round trip to
 * PostgreSQL (the insert) instead of two, which is most of a receipt's cost. Only found
 * properties are remembered (the Origin rule already answered 404 for unknown ones).
 */
export class LiveProperties {
  private readonly remembered = new Map<string, { row: PropertyRow; until: number }>();

  constructor(
    private readonly db: Kysely<ConsentDb>,
    private readonly ttlMs = LIVE_PROPERTY_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async find(propertyId: string): Promise<PropertyRow | undefined> {
    if (this.ttlMs === 0) return findLiveProperty(this.db, propertyId);
    const hit = this.remembered.get(propertyId);
    if (hit && hit.until > this.now()) return hit.row;
    const row = await findLiveProperty(this.db, propertyId);
    if (!row) {
      this.remembered.delete(propertyId);
      return undefined;
    }
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.set(propertyId, { row, until: this.now() + this.ttlMs });
    return row;
  }
}
