// What the latest scan found: counts per category, then the cookies and the scripts (and frames), each
// a table that scrolls sideways inside itself on a phone.
import { CATEGORY_TEXTS, FINDING_CATEGORIES, type FindingCategory, type ScanReport } from '@platform/contracts';
import { ListSection, type ListColumn } from '../../../ui/list-section';
import { Badge, formatDate, Section } from '../../../ui/misc';

const TONES: Record<FindingCategory, string> = {
  necessary: 'green',
  functional: 'blue',
  analytics: 'yellow',
  marketing: 'red',
  unclassified: 'gray',
};
export const CategoryBadge = ({ category }: { category: FindingCategory }) => (
  <Badge tone={TONES[category]}>{CATEGORY_TEXTS[category].label}</Badge>
);

export function CategoryCounts({ counts }: { counts: ScanReport['findings']['counts'] }) {
  return (
    <dl className="category-counts" aria-label="Found per category">
      {FINDING_CATEGORIES.map((category) => (
        <div key={category} className="stat">
          <dt className="stat-label">{CATEGORY_TEXTS[category].label}</dt>
          <dd className="stat-value">{counts[category] ?? 0}</dd>
        </div>
      ))}
    </dl>
  );
}

// On a phone the columns that matter most stay (vendors and domains are in the declaration below).
const COOKIE_COLUMNS: ListColumn[] = [
  { label: 'Cookie' },
  { label: 'Category' },
  { label: 'Vendor', className: 'hide-sm' },
  { label: 'Set by', className: 'hide-sm' },
  { label: 'Expires' },
];
const SCRIPT_COLUMNS: ListColumn[] = [
  { label: 'Host' },
  { label: 'Category' },
  { label: 'Vendor', className: 'hide-sm' },
  { label: 'Address', className: 'hide-sm' },
];

export function CookiesTable({ cookies }: { cookies: ScanReport['findings']['cookies'] }) {
  return (
    <Section title={`Cookies (${cookies.length})`}>
      <ListSection
        loading={false}
        loadingLabel="Loading cookies…"
        empty={cookies.length === 0}
        emptyTitle="No cookies found"
        emptyText="The scan saw no cookie on the pages it visited."
        table={{ label: 'Cookies', columns: COOKIE_COLUMNS }}
      >
        {cookies.map((c) => (
          <tr key={`${c.name}@${c.domain}`}>
            <td>
              <code className="cookie-name">{c.name}</code>
            </td>
            <td>
              <CategoryBadge category={c.category} />
            </td>
            <td className="hide-sm">{c.vendor ?? '—'}</td>
            <td className="hide-sm break">
              {c.domain} <span className="muted">({c.first_party ? 'first party' : 'third party'})</span>
            </td>
            <td>{c.expires_at ? formatDate(c.expires_at, false) : 'End of session'}</td>
          </tr>
        ))}
      </ListSection>
    </Section>
  );
}

export function ScriptsTable({ findings }: { findings: ScanReport['findings'] }) {
  const rows = [
    ...findings.scripts.map((s) => ({ ...s, kind: 'script' })),
    ...findings.iframes.map((f) => ({ ...f, vendor: null, kind: 'frame' })),
  ];
  return (
    <Section title={`Scripts and frames (${rows.length})`}>
      <ListSection
        loading={false}
        loadingLabel="Loading scripts…"
        empty={rows.length === 0}
        emptyTitle="No third-party scripts found"
        table={{ label: 'Scripts and frames', columns: SCRIPT_COLUMNS }}
      >
        {rows.map((s) => (
          <tr key={`${s.kind}:${s.url}`}>
            <td className="break">
              {s.host} {s.kind === 'frame' && <span className="muted">(frame)</span>}
            </td>
            <td>
              <CategoryBadge category={s.category} />
            </td>
            <td className="hide-sm">{s.vendor ?? '—'}</td>
            <td className="hide-sm break muted">{s.url}</td>
          </tr>
        ))}
      </ListSection>
    </Section>
  );
}
