import { DOMAIN_STATUSES } from '@platform/contracts';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { queryState } from '../../api/query-state';
import { can, useSession } from '../../auth/session';
import { routes } from '../../routes';
import { DataState } from '../../ui/data-state';
import { ListSection, type ListColumn } from '../../ui/list-section';
import { formatDate, PageHeader, Section } from '../../ui/misc';
import { useDomainStats, useReceiptStats, useSubscriptionStats, useWebhookStats } from './hooks';
import { DAYS, funnelChart, receiptsChart, WEEKS } from './stats';
import { TimeChart } from './time-chart';
import { PortfolioFigures } from '../figures/portfolio-figures';

/** Allowed green, partial amber, denied red (AA on white). */
const RECEIPT_COLOURS = ['#047857', '#b45309', '#b91c1c'];
const PRODUCT_COLUMNS: ListColumn[] = [
  { label: 'Product' },
  { label: 'Active', className: 'num' },
  { label: 'Trial', className: 'num' },
  { label: 'All', className: 'num' },
];
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function DomainSections() {
  const stats = useDomainStats();
  const funnel = useMemo(() => funnelChart(stats.data?.funnel ?? []), [stats.data]);
  const total = stats.data ? DOMAIN_STATUSES.reduce((n, s) => n + stats.data.by_status[s], 0) : 0;
  return (
    <DataState
      {...queryState(stats)}
      empty={total === 0}
      emptyTitle="No domains yet"
      emptyText={<Link to={routes.domains.create()}>Create your first domain</Link>}
      loadingLabel="Loading your domains…"
    >
      <Section title="Domains by status">
        <div className="grid">
          {DOMAIN_STATUSES.map((s) => (
            <Link key={s} className="stat" to={routes.domains.list({ status: s })}>
              <span className="stat-value">{stats.data?.by_status[s]}</span>
              <span className="stat-label">{s.toLowerCase()}</span>
            </Link>
          ))}
        </div>
      </Section>
      <Section title="Activation funnel per week">
        <TimeChart data={funnel} span={`${WEEKS} weeks`} />
      </Section>
    </DataState>
  );
}

function Subscriptions() {
  const stats = useSubscriptionStats();
  const rows = stats.data?.by_product ?? [];
  return (
    <Section title="Subscriptions by product">
      <ListSection
        {...queryState(stats)}
        loadingLabel="Loading subscriptions…"
        empty={rows.every((p) => p.total === 0)}
        emptyTitle="No subscriptions yet"
        emptyText="A domain's subscription starts when the domain is created."
        table={{ label: 'Subscriptions by product', columns: PRODUCT_COLUMNS }}
      >
        {rows.map((p) => (
          <tr key={p.product_code}>
            <td>
              {p.product_name} <span className="muted">{p.product_code}</span>
            </td>
            <td className="num">{p.active}</td>
            <td className="num">{p.by_status.TRIAL}</td>
            <td className="num">{p.total}</td>
          </tr>
        ))}
      </ListSection>
    </Section>
  );
}

function WebhookHealth() {
  const stats = useWebhookStats();
  const data = stats.data;
  return (
    <Section title="Webhook health">
      <DataState
        {...queryState(stats)}
        empty={data?.endpoints.total === 0}
        emptyTitle="No webhook endpoints"
        emptyText={<Link to={routes.webhooks.list()}>Add an endpoint</Link>}
        loadingLabel="Loading webhook health…"
      >
        {data && (
          <>
            <dl className="facts">
              <dt>Endpoints</dt>
              <dd>
                <Link to={routes.webhooks.list()}>{data.endpoints.total}</Link> ({data.endpoints.disabled} disabled)
              </dd>
              <dt>Pending deliveries</dt>
              <dd>
                {data.pending}
                {data.oldest_pending_delivery_at && `, oldest from ${formatDate(data.oldest_pending_delivery_at)}`}
              </dd>
              <dt>Failed attempts in 24 hours</dt>
              <dd>{data.failed_last_24h}</dd>
            </dl>
            {data.endpoints.failing.length === 0 ? (
              <p className="muted">No endpoint is failing.</p>
            ) : (
              <ul className="failing">
                {data.endpoints.failing.map((e) => (
                  <li key={e.id} className="break">
                    <Link to={routes.webhooks.detail({ endpointId: e.id })}>{e.url}</Link>{' '}
                    <span className="muted">
                      failing since {formatDate(e.failing_since)}, {plural(e.failed_last_24h, 'failure')} in 24 hours
                      {e.enabled ? '' : ' (disabled)'}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </DataState>
    </Section>
  );
}

function Receipts() {
  const stats = useReceiptStats();
  const chart = useMemo(() => receiptsChart(stats.data?.per_day ?? []), [stats.data]);
  return (
    <Section title="Consent receipts per day">
      <DataState
        {...queryState(stats)}
        empty={stats.data?.per_day.every((d) => d.total === 0)}
        emptyTitle="No consent receipts yet"
        emptyText="Receipts appear once visitors answer the widget on an active domain."
        loadingLabel="Loading consent receipts…"
      >
        <TimeChart data={chart} span={`${DAYS} days`} colours={RECEIPT_COLOURS} />
      </DataState>
    </Section>
  );
}

export default function DashboardPage() {
  const session = useSession().data;
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Welcome back${session?.user.name ? `, ${session.user.name}` : ''}.`}
      />
      <DomainSections />
      <div className="two-columns">
        <Subscriptions />
        {can(session, 'webhooks:read') && <WebhookHealth />}
      </div>
      {can(session, 'records:read') && <Receipts />}
      {can(session, 'instance:read') && <PortfolioFigures />}
    </>
  );
}
