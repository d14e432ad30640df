// Requests: the data subject requests of this website, newest first, filtered by status in the
// address; each with its due date, the overdue ones marked; a request's detail and actions in a dialog.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DSAR_STATUSES, ownerDataRequestsQuerySchema, type DataRequest } from '@platform/contracts';
import { useState } from 'react';
import { call } from '../../../api/client';
import { queryState } from '../../../api/query-state';
import { useListQuery } from '../../../list-query';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/field';
import { ListSection, type ListColumn } from '../../../ui/list-section';
import { Badge, formatDate, PageHeader, Pagination } from '../../../ui/misc';
import { useOwnerAccess, useSectionDomain } from '../access';
import { ownerKeys } from '../api';
import { listRequestsRoute, updateRequestRoute } from './hooks';
import { dueDay, REQUEST_STATUS_LABELS, REQUEST_STATUS_TONES, REQUEST_TYPE_LABELS } from './labels';
import { RequestDialog } from './request-dialog';

const COLUMNS: ListColumn[] = [
  { label: 'Received', className: 'hide-sm' },
  { label: 'Type' },
  { label: 'Status' },
  { label: 'Due' },
  { label: 'From', className: 'hide-sm' },
  { label: 'Details', hidden: true },
];
const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...DSAR_STATUSES.map((s) => ({ value: s, label: REQUEST_STATUS_LABELS[s] })),
];

function RequestRow({ request: r, onOpen }: { request: DataRequest; onOpen: () => void }) {
  return (
    <tr className={r.overdue ? 'request-overdue' : undefined} data-request-id={r.request_id}>
      <td className="hide-sm">{formatDate(r.created_at)}</td>
      <td>{REQUEST_TYPE_LABELS[r.type]}</td>
      <td>
        <Badge tone={REQUEST_STATUS_TONES[r.status]}>{REQUEST_STATUS_LABELS[r.status]}</Badge>
      </td>
      <td>
        <time dateTime={r.due_at ?? undefined}>{dueDay(r)}</time>
        {r.overdue && <strong className="request-overdue-text"> Overdue</strong>}
      </td>
      <td className="hide-sm">{r.email}</td>
      <td>
        <Button className="btn-small" onClick={onOpen} aria-label={`Details of request ${r.request_id}`}>
          Details
        </Button>
      </td>
    </tr>
  );
}

export default function RequestsPage() {
  const domain = useSectionDomain();
  const { may } = useOwnerAccess();
  const list = useListQuery(ownerDataRequestsQuerySchema);
  const { query, raw, apiQuery, setFilters } = list;
  const [openId, setOpenId] = useState<string | null>(null);
  const requests = useQuery({
    queryKey: ownerKeys.of(domain.id, 'requests', apiQuery),
    queryFn: () => call(listRequestsRoute, { params: { domainId: domain.id }, query: apiQuery }),
    placeholderData: keepPreviousData,
  });
  const rows = requests.data?.result ?? [];
  const meta = requests.data?.meta;
  // The dialog shows the list's copy, so a change (which refreshes the list) shows at once.
  const open = rows.find((r) => r.request_id === openId) ?? null;
  return (
    <>
      <PageHeader
        title="Requests"
        description={`Visitors' privacy requests to ${domain.hostname} (access, deletion, correction, opt-out, portability), each due by law once the visitor confirmed it.`}
      />
      <form className="filters" role="search" aria-label="Filter requests" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label="Status"
          options={STATUS_OPTIONS}
          value={query.status ?? ''}
          onChange={(e) => setFilters({ status: e.target.value })}
        />
      </form>
      <div aria-busy={requests.isPlaceholderData || undefined}>
        <ListSection
          {...queryState(requests)}
          loadingLabel="Loading requests…"
          empty={rows.length === 0}
          emptyTitle={raw.status ? 'No requests match' : 'No requests yet'}
          emptyText={
            raw.status
              ? 'Try another status.'
              : 'Requests sent from the widget’s form appear here once the visitor confirms them by e-mail.'
          }
          table={{ label: 'Data subject requests', columns: COLUMNS }}
          after={
            <Pagination
              page={meta?.current_page ?? 1}
              hasPrev={!!meta?.prev_page}
              hasNext={!!meta?.next_page}
              onPage={(page) => setFilters({ page: String(page) })}
            />
          }
        >
          {rows.map((r) => (
            <RequestRow key={r.request_id} request={r} onOpen={() => setOpenId(r.request_id)} />
          ))}
        </ListSection>
      </div>
      <RequestDialog
        request={open}
        domainId={domain.id}
        canWork={may(updateRequestRoute)}
        onClose={() => setOpenId(null)}
      />
    </>
  );
}
