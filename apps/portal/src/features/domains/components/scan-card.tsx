import { FINDING_CATEGORIES } from '@platform/contracts';
import { queryState } from '../../../api/query-state';
import { DataState } from '../../../ui/data-state';
import { Badge, formatDate, Section } from '../../../ui/misc';
import { useLatestScan } from '../hooks';

/** The latest scan report: status, when, and what it found per category. */
export function ScanCard({ domainId }: { domainId: string }) {
  const scan = useLatestScan(domainId);
  const report = scan.data;
  return (
    <Section title="Latest scan">
      <DataState
        {...queryState(scan)}
        empty={!report}
        emptyTitle="Never scanned"
        emptyText="Scan the site to see its scripts, cookies and iframes."
      >
        {report && (
          <>
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <Badge>{report.status}</Badge>
              </dd>
              <dt>Finished</dt>
              <dd>{formatDate(report.finished_at)}</dd>
              <dt>Pages</dt>
              <dd>{report.pages.length}</dd>
              {FINDING_CATEGORIES.map((category) => (
                <div key={category} className="contents">
                  <dt>{category}</dt>
                  <dd>{report.findings.counts[category] ?? 0}</dd>
                </div>
              ))}
            </dl>
            {report.errors.length > 0 && (
              <details>
                <summary>{report.errors.length} page errors</summary>
                <ul>
                  {report.errors.map((e) => (
                    <li key={e.url + e.code}>
                      {e.url}: {e.message}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </>
        )}
      </DataState>
    </Section>
  );
}
