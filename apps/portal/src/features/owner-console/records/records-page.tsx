// Consent records: every visitor's signed choice on this website, newest first, filtered by type and
// choice in the address (so back, forward and shared links work), a record's detail, and the CSV export
// of the same filter (a download link: the session cookie goes with it).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ownerRecordsQuerySchema, RECEIPT_STATUSES, RECEIPT_TYPES, type ConsentRecord } from '@platform/contracts';
import { useState } from 'react';
import { call } from '../../../api/client';
import { queryState } from '../../../api/query-state';
import { useListQuery } from '../../../list-query';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/field';
import { ListSection, type ListColumn } from '../../../ui/list-section';
import { Badge, formatDate, PageHeader, Pagination } from '../../../ui/misc';
import { useSectionDomain } from '../access';
import { downloadHref, ownerKeys, ownerRoute } from '../api';
import { STATUS_LABELS, STATUS_TONES, TYPE_LABELS } from './labels';
import { RecordDialog } from './record-dialog';

const COLUMNS: ListColumn[] = [
  { label: 'When' },
  { label: 'Choice' },
  { label: 'Type', className: 'hide-sm' },
  { label: 'Country', className: 'hide-sm' },
  { label: 'Receipt', className: 'hide-sm' },
  { label: 'Details', hidden: true },
];
const TYPE_OPTIONS = [
  { value: '', label: 'All types' },
  ...RECEIPT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] })),
];
const STATUS_OPTIONS = [
  { value: '', label: 'All choices' },
  ...RECEIPT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
];

function RecordRow({ record, onOpen }: { record: ConsentRecord; onOpen: () => void }) {
  return (
    <tr>
      <td className="record-when">{formatDate(record.created_at)}</td>
      <td>
        <Badge tone={STATUS_TONES[record.receipt_status]}>{STATUS_LABELS[record.receipt_status]}</Badge>
      </td>
      <td className="hide-sm">{TYPE_LABELS[record.receipt_type]}</td>
      <td className="hide-sm">{record.country ?? '—'}</td>
      <td className="hide-sm">
        <code className="receipt-id">{record.receipt_id}</code>
      </td>
      <td>
        <Button
          className="btn-small"
          onClick={onOpen}
          aria-label={`Details of the record of ${formatDate(record.created_at)}`}
        >
          Details
        </Button>
      </td>
    </tr>
  );
}

const useRecordsQuery = () => useListQuery(ownerRecordsQuerySchema);

/** The type and choice filters: each change goes to the address (and back to the first page). */
function Filters({ list: { query, setFilters } }: { list: ReturnType<typeof useRecordsQuery> }) {
  return (
    <form className="filters" role="search" aria-label="Filter records" onSubmit={(e) => e.preventDefault()}>
      <SelectField
        label="Type"
        options={TYPE_OPTIONS}
        value={query.receipt_type ?? ''}
        onChange={(e) => setFilters({ receipt_type: e.target.value })}
      />
      <SelectField
        label="Choice"
        options={STATUS_OPTIONS}
        value={query.receipt_status ?? ''}
        onChange={(e) => setFilters({ receipt_status: e.target.value })}
      />
    </form>
  );
}

export default function RecordsPage() {
  const domain = useSectionDomain();
  const list = useRecordsQuery();
  const { query, raw, apiQuery, setFilters } = list;
  const [open, setOpen] = useState<ConsentRecord | null>(null);
  const records = useQuery({
    queryKey: ownerKeys.of(domain.id, 'records', apiQuery),
    queryFn: () => call(ownerRoute('listOwnerRecords'), { params: { domainId: domain.id }, query: apiQuery }),
    placeholderData: keepPreviousData,
  });
  const rows = records.data?.result ?? [];
  const meta = records.data?.meta;
  const filtered = !!(raw.receipt_type || raw.receipt_status);
  const filters = { receipt_type: query.receipt_type, receipt_status: query.receipt_status };
  const exportHref = downloadHref(ownerRoute('exportOwnerRecords'), { domainId: domain.id }, filters);
  return (
    <>
      <PageHeader
        title="Consent records"
        description={`Each visitor's choice on ${domain.hostname}, signed when it was made: your proof of consent.`}
        actions={
          <a className="btn btn-secondary" href={exportHref} download={`consent-records-${domain.hostname}.csv`}>
            Export CSV
          </a>
        }
      />
      <Filters list={list} />
      {/* While another page or filter loads, the rows shown are the last ones: said busy. */}
      <div aria-busy={records.isPlaceholderData || undefined}>
        <ListSection
          {...queryState(records)}
          loadingLabel="Loading consent records…"
          empty={rows.length === 0}
          emptyTitle={filtered ? 'No records match' : 'No consent records yet'}
          emptyText={
            filtered ? 'Try another type or choice.' : 'They appear once visitors answer the widget on your website.'
          }
          table={{ label: 'Consent records', columns: COLUMNS }}
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
            <RecordRow key={r.receipt_id} record={r} onOpen={() => setOpen(r)} />
          ))}
        </ListSection>
      </div>
      <RecordDialog record={open} onClose={() => setOpen(null)} />
    </>
  );
}
