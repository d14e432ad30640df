import { CATEGORY_TEXTS, FINDING_CATEGORIES, type ScanFindings, type WidgetScanSummary } from '@platform/contracts';

/** The third parties a scan found: the vendors behind its scripts and cookies, by name. */
export const vendorsOf = (findings: ScanFindings): string[] =>
  [
    ...new Set([...findings.scripts, ...findings.cookies].map((f) => f.vendor).filter((v): v is string => v !== null)),
  ].sort();

const TRACKING = new Set(['analytics', 'marketing']);

/** What the scan widget shows of a completed scan: counts per category (with their titles), cookies, trackers, third parties. */
export function widgetScanSummaryOf(pages: readonly string[], findings: ScanFindings): WidgetScanSummary {
  return {
    pages: pages.length,
    categories: FINDING_CATEGORIES.map((name) => ({
      name,
      label: CATEGORY_TEXTS[name].label,
      count: findings.counts[name] ?? 0,
    })),
    cookies: findings.cookies.length,
    trackers: [...findings.scripts, ...findings.iframes].filter((f) => TRACKING.has(f.category)).length,
    third_parties: vendorsOf(findings),
  };
}
