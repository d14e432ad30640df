// Scan and cookies: the latest report (status, when, counts, cookies, scripts), Rescan for admins (its
// 409 and 429 said plainly), and the cookie declaration to paste into the privacy policy.
import type { ScanReport } from '@platform/contracts';
import { queryState } from '../../../api/query-state';
import { Button } from '../../../ui/button';
import { DataState } from '../../../ui/data-state';
import { FormMessage } from '../../../ui/field';
import { Badge, formatDate, PageHeader, Section } from '../../../ui/misc';
import { useOwnerAccess, useSectionDomain } from '../access';
import { ownerErrorMessage, ownerRoute } from '../api';
import { CookieDeclarationCard } from './cookie-declaration';
import { CategoryCounts, CookiesTable, ScriptsTable } from './findings';
import { isRunning, rescanRefusal, useOwnerScan, useRescan } from './hooks';

const STATUS_LABELS: Record<ScanReport['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
};
const STATUS_TONES: Record<ScanReport['status'], string> = {
  queued: 'blue',
  running: 'blue',
  completed: 'green',
  failed: 'red',
};

function Summary({ report }: { report: ScanReport }) {
  const running = isRunning(report.status);
  return (
    <>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <Badge tone={STATUS_TONES[report.status]}>{STATUS_LABELS[report.status]}</Badge>
        </dd>
        <dt>{running ? 'Asked for' : 'Finished'}</dt>
        <dd>{formatDate(running ? report.created_at : (report.finished_at ?? report.created_at))}</dd>
        <dt>Pages visited</dt>
        <dd>{report.pages.length}</dd>
      </dl>
      {running && (
        <p className="scan-running">
          <span className="spinner" aria-hidden="true" /> Scanning the site. This page updates when it finishes, in a
          minute or two.
        </p>
      )}
      {report.errors.length > 0 && (
        <details className="scan-errors">
          <summary>
            {report.errors.length} page{report.errors.length === 1 ? '' : 's'} could not be read
          </summary>
          <ul>
            {report.errors.map((e) => (
              <li key={e.url + e.code} className="break">
                {e.url}: {e.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {!running && <CategoryCounts counts={report.findings.counts} />}
    </>
  );
}

export default function ScanPage() {
  const domain = useSectionDomain();
  const writable = useOwnerAccess().may(ownerRoute('startOwnerScan'));
  const scan = useOwnerScan(domain.id);
  const rescan = useRescan(domain.id);
  const report = scan.data;
  const running = isRunning(report?.status);
  const rescanButton = writable && (
    <Button
      variant="primary"
      disabled={running || scan.isPending}
      busy={rescan.isPending}
      busyLabel="Starting…"
      onClick={() => rescan.mutate()}
    >
      {report ? 'Scan again' : 'Scan now'}
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Scan and cookies"
        description={`What the latest scan of ${domain.hostname} found: the cookies and scripts the widget asks consent for.`}
      />
      <Section title="Latest scan" actions={rescanButton}>
        <div role="status" className="status-silent">
          {rescan.isSuccess && running ? 'The scan has started.' : ''}
        </div>
        {rescan.isError && <FormMessage tone="error">{rescanRefusal(rescan.error, ownerErrorMessage)}</FormMessage>}
        <DataState
          {...queryState(scan)}
          loadingLabel="Loading the latest scan…"
          empty={!report}
          emptyTitle="Never scanned"
          emptyText={
            writable
              ? 'Scan the site to find its cookies and scripts.'
              : 'Nobody has scanned the site yet. An admin or the owner of your account can scan it.'
          }
        >
          {report && <Summary report={report} />}
        </DataState>
      </Section>
      {report && !running && report.status === 'completed' && (
        <>
          <CookiesTable cookies={report.findings.cookies} />
          <ScriptsTable findings={report.findings} />
        </>
      )}
      <CookieDeclarationCard domainId={domain.id} scanFinishedAt={report?.finished_at} />
    </>
  );
}
