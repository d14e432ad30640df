import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { AUDIT_KINDS, auditEventRoutes, listAuditEventsQuerySchema, routeOf } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { call } from '../../api/client';
import { queryState } from '../../api/query-state';
import { useListQuery } from '../../list-query';
import { ListSection, type ListColumn } from '../../ui/list-section';
import { SelectField, TextField } from '../../ui/field';
import { formatDate, PageHeader, Pagination } from '../../ui/misc';

const COLUMNS: ListColumn[] = [
  { label: 'When' },
  { label: 'What' },
  { label: 'Who' },
  { label: 'Target', className: 'hide-sm' },
];

export default function AuditPage() {
  const list = useListQuery(listAuditEventsQuerySchema);
  const [actor, setActor] = useState(list.raw.actor_id ?? '');
  const events = useQuery({
    queryKey: ['audit-events', list.apiQuery],
    queryFn: () => call(routeOf(auditEventRoutes, 'listAuditEvents'), { query: list.apiQuery }),
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
      <ListSection
        {...queryState(events)}
        loadingLabel="Loading the audit log…"
        empty={rows.length === 0}
        emptyTitle="No events"
        emptyText="Nothing matches these filters yet."
        table={{ label: 'Audit events', columns: COLUMNS }}
        after={
          <Pagination
            page={list.query.page}
            hasPrev={!!events.data?.meta.prev_page}
            hasNext={!!events.data?.meta.next_page}
            onPage={(page) => list.setFilters({ page: String(page) })}
          />
        }
      >
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
      </ListSection>
    </>
  );
}
