import { listMerchantsQuerySchema } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { queryState } from '../../../api/query-state';
import { can, useSession } from '../../../auth/session';
import { useListQuery } from '../../../list-query';
import { routes } from '../../../routes';
import { ListSection, type ListColumn } from '../../../ui/list-section';
import { TextField } from '../../../ui/field';
import { formatDate, PageHeader, Pagination } from '../../../ui/misc';
import { useMerchantList } from '../hooks';

const COLUMNS: ListColumn[] = [
  { label: 'Merchant id' },
  { label: 'Company' },
  { label: 'Domain' },
  { label: 'Created', className: 'hide-sm' },
];

export default function MerchantsListPage() {
  const session = useSession().data;
  const list = useListQuery(listMerchantsQuerySchema);
  const [search, setSearch] = useState(list.raw.search ?? '');
  const merchants = useMerchantList(list.apiQuery);
  const rows = merchants.data?.result ?? [];
  const filtered = !!(list.raw.search || list.raw.merchant_id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    list.setFilters({ search: search.trim(), merchant_id: undefined });
  };
  return (
    <>
      <PageHeader
        title="Merchants"
        description="The merchants in your system, and the domain each one registered."
        actions={
          can(session, 'merchants:write') && (
            <Link className="btn btn-primary" to={routes.merchants.create()}>
              Create merchant
            </Link>
          )
        }
      />
      <form className="filters" role="search" onSubmit={submit}>
        <TextField
          label="Search"
          type="search"
          name="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Merchant id, company or description"
        />
        <button type="submit" className="btn btn-secondary">
          Search
        </button>
      </form>
      <ListSection
        {...queryState(merchants)}
        loadingLabel="Loading merchants…"
        empty={rows.length === 0}
        emptyTitle={filtered ? 'No merchant matches' : 'No merchants yet'}
        emptyText={filtered ? 'Try another search.' : 'Create one, or name a merchant_id when you create a domain.'}
        table={{ label: 'Merchants', columns: COLUMNS }}
        after={
          <Pagination
            page={list.query.page}
            hasPrev={!!merchants.data?.meta.prev_page}
            hasNext={!!merchants.data?.meta.next_page}
            onPage={(page) => list.setFilters({ page: String(page) })}
          />
        }
      >
        {rows.map((m) => (
          <tr key={m.id}>
            <td className="break">
              <Link to={routes.merchants.detail({ merchantId: m.id })}>{m.merchant_id}</Link>
            </td>
            <td>{m.company_name ?? '—'}</td>
            <td className="break">
              {m.domain ? <Link to={routes.domains.detail({ domainId: m.domain.id })}>{m.domain.hostname}</Link> : '—'}
            </td>
            <td className="hide-sm nowrap">{formatDate(m.created_at, false)}</td>
          </tr>
        ))}
      </ListSection>
    </>
  );
}
