import { consentRecordRoutes, routeOf } from '@platform/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryState } from '../../../api/query-state';
import { ListSection, type ListColumn } from '../../../ui/list-section';
import { Badge, formatDate, Section } from '../../../ui/misc';

const COLUMNS: ListColumn[] = [{ label: 'When' }, { label: 'Choice' }, { label: 'Country' }];
const STATUS_TONES: Record<string, string> = { ALLOWED: 'green', PARTIAL: 'yellow', DENIED: 'gray' };

/** The domain's newest signed consent records (each visitor's choice, as the widget recorded it). */
export function ConsentRecordsCard({ domainId }: { domainId: string }) {
  const records = useQuery({
    queryKey: ['domains', 'detail', domainId, 'records'],
    queryFn: async () =>
      (await call(routeOf(consentRecordRoutes, 'listRecords'), { query: { domain_id: domainId, limit: 10 } })).result,
  });
  const rows = records.data ?? [];
  return (
    <Section title="Consent records">
      <ListSection
        {...queryState(records)}
        loadingLabel="Loading consent records…"
        empty={rows.length === 0}
        emptyTitle="No consent records yet"
        emptyText="They appear once visitors answer the widget on the site."
        table={{ label: 'Consent records', columns: COLUMNS }}
      >
        {rows.map((r) => (
          <tr key={r.receipt_id}>
            <td className="nowrap">{formatDate(r.created_at)}</td>
            <td>
              <Badge tone={STATUS_TONES[r.receipt_status]}>{r.receipt_status}</Badge>
            </td>
            <td>{r.country ?? '—'}</td>
          </tr>
        ))}
      </ListSection>
    </Section>
  );
}
