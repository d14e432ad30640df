import {
  CATEGORY_TEXTS,
  categoryPurpose,
  FINDING_CATEGORIES,
  type DataCollectionItem,
  type FindingCategory,
  type ScanFindings,
  type WidgetCookie,
} from '@platform/contracts';

const CATEGORY_ORDER = new Map<string, number>(FINDING_CATEGORIES.map((c, i) => [c, i]));
const byCategoryThenName = (a: { category: string; name: string }, b: { category: string; name: string }) =>
  (CATEGORY_ORDER.get(a.category) ?? 9) - (CATEGORY_ORDER.get(b.category) ?? 9) || a.name.localeCompare(b.name);

/** The cookies as the widget lists them: one per name and domain, by category then name (a stable order: the consent revision hashes it). */
export function widgetCookiesOf(findings: ScanFindings): WidgetCookie[] {
  const seen = new Map<string, WidgetCookie>();
  for (const c of findings.cookies) {
    const key = `${c.name}\u0000${c.domain}`;
    if (!seen.has(key))
      seen.set(key, {
        name: c.name,
        domain: c.domain,
        category: c.category,
        vendor: c.vendor,
        expires_at: c.expires_at,
      });
  }
  return [...seen.values()].sort(byCategoryThenName);
}

/**
 * The property's data collection from what the scan found: one item per category in use, naming
 * the vendors (partners) behind its scripts, cookies and frames and the cookie names (fields).
 */
export function dataCollectionOf(hostname: string, findings: ScanFindings): DataCollectionItem[] {
  const byCategory = new Map<FindingCategory, { vendors: Map<string, string>; cookies: Set<string> }>();
  const entry = (category: FindingCategory) => {
    let e = byCategory.get(category);
    if (!e) byCategory.set(category, (e = { vendors: new Map(), cookies: new Set() }));
    return e;
  };
  for (const s of findings.scripts) {
    const e = entry(s.category);
    if (s.vendor && !e.vendors.has(s.vendor)) e.vendors.set(s.vendor, `https://${s.host}`);
  }
  for (const f of findings.iframes) entry(f.category);
  for (const c of findings.cookies) {
    const e = entry(c.category);
    e.cookies.add(c.name);
    if (c.vendor && !e.vendors.has(c.vendor)) e.vendors.set(c.vendor, `https://${c.domain.replace(/^\./, '')}`);
  }
  return FINDING_CATEGORIES.filter((category) => byCategory.has(category)).map((category) => {
    const e = byCategory.get(category)!;
    const { label } = CATEGORY_TEXTS[category];
    return {
      name: label,
      description: `${label} technologies found on ${hostname}`,
      fields: [...e.cookies].sort().map((name) => ({
        categories: [category],
        consent_type: category === 'necessary' ? 'NOT_REQUIRED' : 'OPT_IN',
        name,
      })),
      partners: [...e.vendors.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, url]) => ({ name, usage: category, url })),
      processors: [],
      // The category in the words the widget shows (one table, libs/contracts).
      purposes: [categoryPurpose(category, 'ACTIVE')],
    };
  });
}
