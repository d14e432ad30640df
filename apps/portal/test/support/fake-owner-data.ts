// Seed data for the fake owner console (fake-owner.ts): a domain's widget property, its company, a rich
// scan report, consent records and the cookie declaration, shaped by libs/contracts' types, dated from NOW.
import { createHash } from 'node:crypto';
import {
  CATEGORY_TEXTS,
  CONSENT_CATEGORY_IDS,
  FINDING_CATEGORIES,
  RECEIPT_STATUSES,
  categoryPurpose,
  type ConsentRecord,
  type CookieDeclaration,
  type CookieFinding,
  type DomainDetail,
  type InstanceCompany,
  type InstanceProperty,
  type PropertyEntityData,
  type ScanReport,
} from '@platform/contracts';
import { daysAgo, NOW } from './fake-data';

export function property(d: DomainDetail): PropertyEntityData & InstancePropertyExtras {
  return {
    id: d.instance_property_id,
    name: d.hostname,
    description: '',
    status: d.status,
    widget_font: '',
    widget_position: 'BOTTOM_RIGHT',
    border_radius: '8px',
    primary_color: '#1a56db',
    text_color: '#1f2937',
    has_scripts: d.has_scripts,
    has_dsar: d.has_dsar,
    has_docs: d.has_docs,
    has_accessibility: d.has_accessibility,
    has_accessibility_icon: false,
    display_dpo: d.display_dpo,
    display_company: d.display_company,
    has_welcome_message: false,
    has_continuous_scanning: false,
    company_id: d.instance_company_id,
    activated_at: d.activated_at,
    created_at: d.created_at,
    default_language: 'en',
    text_overrides: {},
    consent_max_age_days: 365,
    regime: 'AUTO',
    ads_data_redaction: true,
    url_passthrough: false,
  };
}

/** The instance property's fields beyond the event's data that the console edits. */
type InstancePropertyExtras = Pick<
  InstanceProperty,
  'consent_max_age_days' | 'default_language' | 'text_overrides' | 'regime' | 'ads_data_redaction' | 'url_passthrough'
>;

export const company = (d: DomainDetail): InstanceCompany => ({
  ...structuredClone(d.property.company),
  id: d.instance_company_id,
  dpo: null,
});

const cookie = (
  d: DomainDetail,
  name: string,
  category: CookieFinding['category'],
  vendor: string | null,
  days: number | null,
  thirdParty?: string,
): CookieFinding => ({
  name,
  domain: thirdParty ?? d.hostname,
  expires_at: days === null ? null : new Date(NOW.getTime() + days * 24 * 3600 * 1000).toISOString(),
  first_party: !thirdParty,
  category,
  vendor,
});

const zeroCounts = () => Object.fromEntries(FINDING_CATEGORIES.map((c) => [c, 0])) as ScanReport['findings']['counts'];

/** A completed scan of the domain's site: cookies and scripts of every category, one page that failed. */
export function scanReport(d: DomainDetail, id = `scan_${d.id}`, finishedAt = daysAgo(2)): ScanReport {
  const cookies = [
    cookie(d, 'session_id', 'necessary', null, null),
    cookie(d, 'csrf_token', 'necessary', null, null),
    cookie(d, 'lang', 'functional', null, 365),
    cookie(d, '_ga', 'analytics', 'Google', 730),
    cookie(d, '_ga_7QX2P9', 'analytics', 'Google', 730),
    cookie(d, '_fbp', 'marketing', 'Meta', 90),
    cookie(d, 'IDE', 'marketing', 'Google', 390, '.doubleclick.net'),
    cookie(d, 'ab_bucket', 'unclassified', null, 30),
  ];
  const scripts = [
    {
      url: 'https://www.googletagmanager.com/gtag/js?id=G-7QX2P9',
      host: 'www.googletagmanager.com',
      category: 'analytics' as const,
      vendor: 'Google',
    },
    {
      url: 'https://connect.facebook.net/en_US/fbevents.js',
      host: 'connect.facebook.net',
      category: 'marketing' as const,
      vendor: 'Meta',
    },
    {
      url: 'https://cdn.shopfonts.example/loader.js',
      host: 'cdn.shopfonts.example',
      category: 'functional' as const,
      vendor: null,
    },
  ];
  const iframes = [
    {
      url: 'https://www.youtube.com/embed/x1y2z3',
      host: 'www.youtube.com',
      category: 'marketing' as const,
      marked: false,
    },
  ];
  const counts = zeroCounts();
  for (const f of [...cookies, ...scripts, ...iframes]) counts[f.category] = (counts[f.category] ?? 0) + 1;
  return {
    id,
    domain_id: d.id,
    status: 'completed',
    mode: 'browser',
    requested_by: 'API',
    started_at: finishedAt,
    finished_at: finishedAt,
    pages: ['/', '/shop', '/about', '/contact'].map((p) => `https://${d.hostname}${p}`),
    findings: { scripts, cookies, iframes, counts },
    errors: [
      {
        url: `https://${d.hostname}/contact`,
        code: 'SCAN.TIMEOUT',
        message: 'The page did not finish loading in 30 s.',
      },
    ],
    created_at: finishedAt,
  };
}

/** A queued scan (POST .../scan), before the scanner took it. */
export const queuedScan = (d: DomainDetail, id: string): ScanReport => ({
  ...scanReport(d, id, ''),
  status: 'queued',
  mode: null,
  requested_by: 'API',
  started_at: null,
  finished_at: null,
  pages: [],
  findings: { scripts: [], cookies: [], iframes: [], counts: zeroCounts() },
  errors: [],
  created_at: NOW.toISOString(),
});

function duration(expiresAt: string | null, from: string): string {
  if (!expiresAt) return 'Session';
  const days = Math.round((Date.parse(expiresAt) - Date.parse(from)) / (24 * 3600 * 1000));
  if (days >= 360) return `${Math.round(days / 365)} year${Math.round(days / 365) === 1 ? '' : 's'}`;
  return `${days} days`;
}

/** The cookie declaration made from a completed scan (none: every category empty, scanned_at null). */
export function declaration(d: DomainDetail, scan: ScanReport | undefined): CookieDeclaration {
  const from = scan?.finished_at ?? NOW.toISOString();
  return {
    domain_id: d.id,
    hostname: d.hostname,
    scanned_at: scan?.finished_at ?? null,
    categories: FINDING_CATEGORIES.map((category) => ({
      category,
      label: CATEGORY_TEXTS[category].label,
      description: CATEGORY_TEXTS[category].description,
      cookies: (scan?.findings.cookies ?? [])
        .filter((c) => c.category === category)
        .map((c) => ({
          name: c.name,
          domain: c.domain,
          vendor: c.vendor,
          first_party: c.first_party,
          duration: duration(c.expires_at, from),
        })),
    })),
  };
}

const COUNTRIES = [
  ['DE', 'Berlin', 'GDPR'],
  ['FR', 'Île-de-France', 'GDPR'],
  ['GB', 'England', 'UK_GDPR'],
  ['US', 'California', 'CCPA'],
  [null, null, null],
] as const;

/** The domain's consent records, newest first: mostly cookie consents, every choice, a few age confirmations. */
export function consentRecords(d: DomainDetail, count = 45): ConsentRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const status = RECEIPT_STATUSES[i % 3];
    const answer = {
      necessary: true,
      functional: status !== 'DENIED',
      analytics: status === 'ALLOWED',
      marketing: status === 'ALLOWED',
    };
    const [country, region, jurisdiction] = COUNTRIES[i % COUNTRIES.length];
    return {
      receipt_id: `RCPT_${createHash('md5').update(`${d.id}/${i}`).digest('hex')}`,
      receipt_type: i % 7 === 6 ? 'AGE_CONFIRMATION' : 'COOKIE_CONSENT',
      receipt_status: status,
      country,
      region,
      jurisdiction,
      meta: { widget_version: '2.4.1', consent_revision: 'rev_3f9a', gpc: i % 11 === 0 },
      data_collection: [
        {
          name: d.hostname,
          description: `Cookies and similar technologies on ${d.hostname}`,
          fields: [],
          partners: [],
          processors: [],
          purposes: CONSENT_CATEGORY_IDS.map((c) => categoryPurpose(c, answer[c] ? 'GRANTED' : 'DENIED')),
        },
      ],
      data_controller: {
        name: d.property.company.name,
        logo: null,
        phone_number: null,
        url: `https://${d.hostname}`,
        email: d.property.company.email,
        address: {
          id: d.instance_company_id,
          country: 'DE',
          state: null,
          address: 'Hauptstr. 1',
          address_2: null,
          postal_code: '10115',
          phone_number: null,
        },
      },
      subject: `v_${(i * 7919).toString(36).padStart(8, '0')}`,
      subject_auth: 'ANONYMOUS',
      subject_data: { categories: answer },
      property_id: d.instance_property_id,
      created_at: daysAgo(0.25 + i * 0.37),
      signature: `eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIn0..${Buffer.from(`sig-${d.id}-${i}`).toString('base64url')}`,
    };
  });
}

/** The export's CSV, as the gateway writes it (a header, then a line per record). */
export function recordsCsv(records: ConsentRecord[]): string {
  const cell = (v: string | null) => (v === null ? '' : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const head = 'receipt_id,created_at,receipt_type,receipt_status,country,region,jurisdiction,subject';
  const lines = records.map((r) =>
    [r.receipt_id, r.created_at, r.receipt_type, r.receipt_status, r.country, r.region, r.jurisdiction, r.subject]
      .map(cell)
      .join(','),
  );
  return [head, ...lines].join('\n') + '\n';
}
