import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { AUDIT_KINDS } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { call } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { auditRoutes } from '../../api/pending.routes';
import { listAuditQuerySchema } from '../../api/pending.schema';
import { useListQuery } from '../../list-query';
import { DataState } from '../../ui/data-state';
import { SelectField, TextField } from '../../ui/field';
import { formatDate, PageHeader, Pagination, TableFrame } from '../../ui/misc';

export default function AuditPage() {
  const list = useListQuery(listAuditQuerySchema);
  const [actor, setActor] = useState(list.raw.actor_id ?? '');
  const events = useQuery({
    queryKey: ['audit-events', list.apiQuery],
    queryFn: () => call(auditRoutes.listAuditEvents, { query: list.apiQuery }),
    placeholderData: keepPreviousData,
  });
  const rows = events.data?.result ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    list.setFilters({ actor_id: actor.trim() });
  };
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what: keys, webhooks, users, domain deletions and deactivations, templates and settings."
      />
      <form className="filters" role="search" onSubmit={submit}>
        <SelectField
          label="Kind"
          options={[{ value: '', label: 'Every kind' }, ...AUDIT_KINDS]}
          value={list.raw.kind ?? ''}
          onChange={(e) => list.setFilters({ kind: e.target.value })}
        />
        <TextField label="Actor id" value={actor} onChange={(e) => setActor(e.target.value)} />
        <button type="submit" className="btn btn-secondary">
          Filter
        </button>
      </form>
      <DataState
        loading={events.isPending}
        error={events.isError ? errorMessage(events.error) : undefined}
        onRetry={() => events.refetch()}
        empty={rows.length === 0}
        emptyTitle="No events"
        emptyText="Nothing matches these filters yet."
        loadingLabel="Loading the audit log…"
      >
        <TableFrame label="Audit events">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Who</th>
              <th scope="col" className="hide-sm">
                Target
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id}>
                <td className="nowrap">{formatDate(e.created_at)}</td>
                <td>
                  <code>{e.kind}</code>
                </td>
                <td className="break">
                  {e.actor.label}
                  <div className="muted">{e.actor.type.replace('_', ' ').toLowerCase()}</div>
                </td>
                <td className="hide-sm break">{e.target ? `${e.target.type} ${e.target.id}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </TableFrame>
        <Pagination
          page={list.query.page}
          hasPrev={!!events.data?.meta.prev_page}
          hasNext={!!events.data?.meta.next_page}
          onPage={(page) => list.setFilters({ page: String(page) })}
        />
      </DataState>
    </>
  );
}
