import { CATEGORY_TEXTS, CONSENT_CATEGORY_IDS } from '../consent/categories';
import type { CookieDeclaration } from '../identity/owner-console.schema';
import type { FindingCategory, ScanReport } from './scan.schema';

/** The declaration's categories: the widget's order, then what no source classified. */
export const DECLARATION_CATEGORIES: readonly FindingCategory[] = [...CONSENT_CATEGORY_IDS, 'unclassified'];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * How long a cookie lasts, as a privacy policy states it: "Session" (no expiry), else its expiry
 * counted from when the scan saw it, rounded to the largest sensible unit: minutes, hours, days
 * (under 60), months (under about a year), years.
 */
export function cookieDuration(expiresAt: string | null, seenAt: string): string {
  if (expiresAt === null) return 'Session';
  const ms = Date.parse(expiresAt) - Date.parse(seenAt);
  if (!Number.isFinite(ms)) return 'Session';
  if (ms < HOUR) return plural(Math.max(1, Math.round(ms / MINUTE)), 'minute');
  if (ms < DAY) return plural(Math.round(ms / HOUR), 'hour');
  const days = Math.round(ms / DAY);
  if (days < 60) return plural(days, 'day');
  if (days < 350) return plural(Math.round(days / 30.44), 'month');
  return plural(Math.max(1, Math.round(days / 365.25)), 'year');
}

/**
 * The cookie declaration of a domain from its latest scan report: the cookies grouped by category
 * (every category listed, in DECLARATION_CATEGORIES' order, with the widget's texts), each with
 * its duration from the scan's end. Only a completed scan counts: no report, or one still queued,
 * running or failed, gives every category empty and scanned_at null.
 */
export function cookieDeclarationOf(
  domain: { id: string; hostname: string },
  report: ScanReport | undefined,
): CookieDeclaration {
  const scannedAt = report?.status === 'completed' ? report.finished_at : null;
  const cookies = scannedAt === null ? [] : report!.findings.cookies;
  return {
    domain_id: domain.id,
    hostname: domain.hostname,
    scanned_at: scannedAt,
    categories: DECLARATION_CATEGORIES.map((category) => ({
      category,
      label: CATEGORY_TEXTS[category].label,
      description: CATEGORY_TEXTS[category].description,
      cookies: cookies
        .filter((c) => c.category === category)
        .sort((a, b) => a.name.localeCompare(b.name) || a.domain.localeCompare(b.domain))
        .map((c) => ({
          name: c.name,
          domain: c.domain,
          vendor: c.vendor,
          first_party: c.first_party,
          duration: cookieDuration(c.expires_at, scannedAt!),
        })),
    })),
  };
}
