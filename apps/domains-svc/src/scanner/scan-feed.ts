import {
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

const PURPOSES: Record<FindingCategory, { name: string; legal: string; profiling: boolean }> = {
  necessary: {
    name: 'Strictly necessary',
    legal: 'Needed for the site to work; no consent required.',
    profiling: false,
  },
  functional: {
    name: 'Functional',
    legal: "Remembers the visitor's settings, with the visitor's consent.",
    profiling: false,
  },
  analytics: { name: 'Analytics', legal: 'Measures how the site is used, with the visitor consent.', profiling: false },
  marketing: {
    name: 'Marketing',
    legal: 'Personalised advertising and sharing with partners, with the visitor consent.',
    profiling: true,
  },
  unclassified: {
    name: 'Not classified',
    legal: 'Found on the site; no source names its purpose yet.',
    profiling: false,
  },
};

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
    const purpose = PURPOSES[category];
    return {
      name: purpose.name,
      description: `${purpose.name} technologies found on ${hostname}`,
      fields: [...e.cookies]
        .sort()
        .map((name) => ({
          categories: [category],
          consent_type: category === 'necessary' ? 'NOT_REQUIRED' : 'OPT_IN',
          name,
        })),
      partners: [...e.vendors.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, url]) => ({ name, usage: category, url })),
      processors: [],
      purposes: [
        {
          category,
          is_primary: category === 'necessary',
          is_profiling: purpose.profiling,
          legal_base: category === 'necessary' ? 'LEGITIMATE_INTEREST' : 'CONSENT',
          legal_description: purpose.legal,
          name: purpose.name,
          status: 'ACTIVE',
          termination: 'Until the visitor changes the choice',
        },
      ],
    };
  });
}
