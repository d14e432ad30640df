import { readFileSync } from 'node:fs';
import path from 'node:path';
import loadTrackerDB from '@ghostery/trackerdb';
import type { FindingCategory } from '@platform/contracts';
import { knownCookie } from './known-cookies';
import { isFirstParty, normalHost } from './site';

/**
 * Ghostery's tracker database categories (github.com/ghostery/trackerdb, docs/categories.md) and
 * the consent category each one means here. `misc` is what the database itself calls
 * "unclassified trackers", `extensions` is browser software, not site content: both unclassified.
 */
export const TRACKERDB_CATEGORIES: Readonly<Record<string, FindingCategory>> = {
  advertising: 'marketing',
  pornvertising: 'marketing',
  social_media: 'marketing',
  site_analytics: 'analytics',
  audio_video_player: 'functional',
  customer_interaction: 'functional',
  hosting: 'functional',
  utilities: 'functional',
  consent: 'necessary',
  misc: 'unclassified',
  extensions: 'unclassified',
};

/** When a URL matches several patterns, the one that asks most of the visitor's consent wins. */
const WEIGHT: Record<FindingCategory, number> = {
  marketing: 4,
  analytics: 3,
  functional: 2,
  necessary: 1,
  unclassified: 0,
};

export interface Classification {
  category: FindingCategory;
  vendor: string | null;
}

const UNCLASSIFIED: Classification = { category: 'unclassified', vendor: null };

/** The part of a trackerdb match this module reads. */
interface TrackerMatch {
  pattern: { name: string; category: string };
  organization: { name: string } | null;
}

type TrackerDb = Awaited<ReturnType<typeof loadTrackerDB>>;

let loading: Promise<TrackerDb> | undefined;

/** The database's prebuilt engine, shipped in the npm package; loaded once per process (~15 ms, ~20 MB). */
function trackerDb(): Promise<TrackerDb> {
  loading ??= (async () => {
    const engine = readFileSync(
      path.join(path.dirname(require.resolve('@ghostery/trackerdb')), '..', 'trackerdb.engine'),
    );
    return loadTrackerDB(engine);
  })();
  return loading;
}

function strongest(matches: readonly TrackerMatch[]): Classification {
  let best = UNCLASSIFIED;
  for (const m of matches) {
    const category = TRACKERDB_CATEGORIES[m.pattern.category] ?? 'unclassified';
    if (best === UNCLASSIFIED || WEIGHT[category] > WEIGHT[best.category])
      best = { category, vendor: m.organization?.name ?? m.pattern.name };
  }
  return best;
}

export type RequestKind = 'script' | 'sub_frame' | 'main_frame';

/** Classifies hosts, requests and cookies from the sources above; what none of them knows is unclassified. */
export class Classifier {
  private constructor(private readonly db: TrackerDb) {}

  static async load(): Promise<Classifier> {
    return new Classifier(await trackerDb());
  }

  host(host: string): Classification {
    return strongest(this.db.matchDomain(normalHost(host)) as unknown as TrackerMatch[]);
  }

  /** A request the page made: the database's URL filters first (more precise), its domains next. */
  request(url: string, kind: RequestKind, pageUrl: string): Classification {
    const matches = this.db.matchUrl(
      { url, type: kind, sourceUrl: pageUrl },
      { getDomainMetadata: true },
    ) as unknown as TrackerMatch[];
    return matches.length > 0 ? strongest(matches) : this.host(new URL(url).hostname);
  }

  /** A cookie: its well-known name first, then its domain when that is a third party's. */
  cookie(name: string, domain: string, targetHost: string): Classification {
    const known = knownCookie(name);
    if (known) return { category: known.category, vendor: known.vendor || null };
    return isFirstParty(domain, targetHost) ? UNCLASSIFIED : this.host(domain.replace(/^\./, ''));
  }
}
