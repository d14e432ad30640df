import type { TemplateValues } from '../domains/mail/template-engine';

/** What the scan report e-mail tells the owner: the counts per category and the third parties and cookies found. */
export interface ScanReportFacts {
  pages: number;
  counts: Record<string, number>;
  vendors: string[];
  cookies: { name: string; category: string; vendor: string | null }[];
}

/** The SCAN_REPORT template's own variables (see EMAIL_TEMPLATE_VARIABLES), as text lines. */
export function scanReportValues(m: ScanReportFacts): TemplateValues {
  return {
    scan_pages: String(m.pages),
    scan_summary: Object.entries(m.counts)
      .map(([category, n]) => `${category}: ${n}`)
      .join('\n'),
    scan_third_parties: m.vendors.join(', '),
    scan_cookies: m.cookies.map((c) => `${c.name} (${c.category}${c.vendor ? `, ${c.vendor}` : ''})`).join('\n'),
  };
}
