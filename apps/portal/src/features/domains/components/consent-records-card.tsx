import { consentRecordRoutes, routeOf } from '@platform/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { DataState } from '../../../ui/data-state';
import { Badge, formatDate, Section, TableFrame } from '../../../ui/misc';

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
      <DataState
        loading={records.isPending}
        error={records.isError ? errorMessage(records.error) : undefined}
        onRetry={() => records.refetch()}
        empty={rows.length === 0}
        emptyTitle="No consent records yet"
        emptyText="They appear once visitors answer the widget on the site."
      >
        <TableFrame label="Consent records">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Choice</th>
              <th scope="col">Country</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.receipt_id}>
                <td className="nowrap">{formatDate(r.created_at)}</td>
                <td>
                  <Badge tone={STATUS_TONES[r.receipt_status]}>{r.receipt_status}</Badge>
                </td>
                <td>{r.country ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </TableFrame>
      </DataState>
    </Section>
  );
}
