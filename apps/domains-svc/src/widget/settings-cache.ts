import { baseLanguage, type Regime } from '@platform/contracts';
import { notFound } from '@platform/http';
import type { DomainsContext } from '../context';
import { widgetSettings, type WidgetSettingsAnswer } from './widget-settings.service';
import { findWidgetSettingsStamp } from './widget.repository';

/** What the cache counts (the service's Prometheus counters in production). */
export interface SettingsCacheCounters {
  hit(): void;
  miss(): void;
}

export interface SettingsCacheOptions {
  /** How long an entry may serve at most (its stamp is checked on every answer anyway). */
  ttlMs: number;
  /** Entries kept at most: past it the oldest is dropped, so memory stays bounded. */
  maxEntries: number;
  counters?: SettingsCacheCounters;
  now?: () => number;
}

interface Entry {
  stamp: string;
  at: number;
  answer: WidgetSettingsAnswer;
}

/**
 * The built settings answers (body and ETag), keyed by property id × the regime of the visitor's
 * place × the language asked for (one the widget speaks, else the property's default: at most 17
 * per regime): every visitor of one regime and language gets the same bytes, so they share an entry.
 * An entry serves only while the property's change stamp (updated_at of its domain, property and
 * company) is the one it was built at, so a change shows at once on this and every other instance;
 * a hit saves the settings' read (scanned cookies and data collection), the build and the hash.
 */
export class WidgetSettingsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: SettingsCacheOptions) {}

  async answer(
    ctx: Pick<DomainsContext, 'db'>,
    propertyId: string,
    ofPlace: Regime,
    lang?: string,
  ): Promise<WidgetSettingsAnswer> {
    const stamp = await findWidgetSettingsStamp(ctx.db, propertyId);
    if (stamp === undefined) throw notFound('property');
    const key = `${propertyId}:${ofPlace}:${baseLanguage(lang) ?? '-'}`;
    const now = (this.options.now ?? Date.now)();
    const held = this.entries.get(key);
    if (held && held.stamp === stamp && now - held.at < this.options.ttlMs) {
      this.options.counters?.hit();
      return held.answer;
    }
    this.options.counters?.miss();
    const answer = await widgetSettings(ctx, propertyId, ofPlace, lang);
    this.entries.delete(key); // re-inserted last: the Map's order is the age order
    this.entries.set(key, { stamp, at: now, answer });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return answer;
  }

  get size(): number {
    return this.entries.size;
  }
}
