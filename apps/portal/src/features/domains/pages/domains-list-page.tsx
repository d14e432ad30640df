import { DOMAIN_STATUSES, listDomainsQuerySchema } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { queryState } from '../../../api/query-state';
import { can, useSession } from '../../../auth/session';
import { useListQuery } from '../../../list-query';
import { routes } from '../../../routes';
import { ListSection } from '../../../ui/list-section';
import { SelectField, TextField } from '../../../ui/field';
import { PageHeader, Pagination } from '../../../ui/misc';
import { BulkProductChange } from '../components/bulk-product-change';
import { domainColumns, DomainRow } from '../components/domains-table';
import { useDomainList } from '../hooks';

const STATUS_OPTIONS = [{ value: '', label: 'Any status' }, ...DOMAIN_STATUSES.map((s) => ({ value: s, label: s }))];

function Filters({ raw, setFilters }: ReturnType<typeof useListQuery>) {
  const [search, setSearch] = useState(raw.search ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ search: search.trim() });
  };
  return (
    <form className="filters" role="search" onSubmit={submit}>
      <TextField
        label="Search"
        name="search"
        type="search"
        placeholder="Hostname, domain id or property id"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <SelectField
        label="Status"
        name="status"
        options={STATUS_OPTIONS}
        value={raw.status ?? ''}
        onChange={(e) => setFilters({ status: e.target.value })}
      />
      <button type="submit" className="btn btn-secondary">
        Search
      </button>
    </form>
  );
}

export default function DomainsListPage() {
  const session = useSession().data;
  const list = useListQuery(listDomainsQuerySchema);
  const { query, raw, setFilters } = list;
  const domains = useDomainList(list.apiQuery);
  const rows = domains.data?.result ?? [];
  const filtered = !!(raw.search || raw.status);
  const [selected, setSelected] = useState(new Set<string>());
  const select = (ids: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });
  const selection = can(session, 'subscriptions:write') ? { selected, onSelect: select } : undefined;
  return (
    <>
      <PageHeader
        title="Domains"
        description="Every site you manage, newest first."
        actions={
          can(session, 'domains:write') && (
            <>
              <Link className="btn btn-secondary" to={routes.domains.import()}>
                Import domains
              </Link>
              <Link className="btn btn-primary" to={routes.domains.create()}>
                Create domain
              </Link>
            </>
          )
        }
      />
      <Filters {...list} />
      <ListSection
        {...queryState(domains)}
        loadingLabel="Loading domains…"
        empty={rows.length === 0}
        emptyTitle={filtered ? 'No domain matches these filters' : 'No domains yet'}
        emptyText={
          filtered ? 'Change the search or the status.' : 'Create your first domain to get its widget snippet.'
        }
        table={{ label: 'Domains', columns: domainColumns(rows, selection) }}
        before={selection && <BulkProductChange domainIds={[...selected]} onDone={() => setSelected(new Set())} />}
        after={
          <Pagination
            page={query.page}
            hasPrev={!!domains.data?.meta.prev_page}
            hasNext={!!domains.data?.meta.next_page}
            onPage={(page) => setFilters({ page: String(page) })}
          />
        }
      >
        {rows.map((d) => (
          <DomainRow key={d.id} domain={d} selection={selection} />
        ))}
      </ListSection>
    </>
  );
}
