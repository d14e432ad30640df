import {
  FINDING_CATEGORIES,
  type CookieFinding,
  type FindingCategory,
  type IframeFinding,
  type ScanFindings,
  type ScriptFinding,
} from '@platform/contracts';
import type { Classifier } from './classify';
import { isFirstParty, normalHost } from './site';

/** Iframes held for consent (the widget's marking): they load nothing, their URL is in data-src. */
export const MARKED_IFRAMES = 'iframe[data-category][data-src]:not([src])';

/** A cookie as a mode saw it, before classification. */
export interface SeenCookie {
  name: string;
  /** Without a leading dot. */
  domain: string;
  /** null: a session cookie. */
  expiresAt: Date | null;
}

/** What one scan found, each script, iframe and cookie once, classified as it is added. */
export class FindingsCollector {
  private readonly scripts = new Map<string, ScriptFinding>();
  private readonly iframes = new Map<string, IframeFinding>();
  private readonly cookies = new Map<string, CookieFinding>();

  constructor(
    private readonly classifier: Classifier,
    private readonly targetHost: string,
  ) {}

  addScript(url: URL, pageUrl: string): void {
    if (this.scripts.has(url.href)) return;
    const { category, vendor } = this.classifier.request(url.href, 'script', pageUrl);
    this.scripts.set(url.href, { url: url.href, host: normalHost(url.hostname), category, vendor });
  }

  /** `marked`: held for consent (data-category, data-src, no src). Seen anywhere unmarked, it is reported unmarked. */
  addIframe(url: URL, pageUrl: string, marked = false): void {
    const seen = this.iframes.get(url.href);
    if (seen) {
      seen.marked &&= marked;
      return;
    }
    const { category } = this.classifier.request(url.href, 'sub_frame', pageUrl);
    this.iframes.set(url.href, { url: url.href, host: normalHost(url.hostname), category, marked });
  }

  /** The latest sighting of a cookie (name and domain) wins: its expiry may have moved. */
  addCookie(cookie: SeenCookie): void {
    const domain = normalHost(cookie.domain.replace(/^\./, ''));
    const { category, vendor } = this.classifier.cookie(cookie.name, domain, this.targetHost);
    this.cookies.set(`${cookie.name}\u0000${domain}`, {
      name: cookie.name,
      domain,
      expires_at:
        cookie.expiresAt && Number.isFinite(cookie.expiresAt.getTime()) ? cookie.expiresAt.toISOString() : null,
      first_party: isFirstParty(domain, this.targetHost),
      category,
      vendor,
    });
  }

  result(): ScanFindings {
    const scripts = [...this.scripts.values()];
    const cookies = [...this.cookies.values()];
    const iframes = [...this.iframes.values()];
    const counts = Object.fromEntries(FINDING_CATEGORIES.map((c) => [c, 0])) as Record<FindingCategory, number>;
    for (const { category } of [...scripts, ...cookies, ...iframes]) counts[category] += 1;
    return { scripts, cookies, iframes, counts };
  }
}
