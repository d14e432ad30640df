import { DOMAIN_STATUSES } from '@platform/contracts';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/errors';
import { can, useSession } from '../../auth/session';
import { routes } from '../../routes';
import { DataState } from '../../ui/data-state';
import { PageHeader, Section } from '../../ui/misc';
import { useEndpoints } from '../webhooks/hooks';
import { FunnelChart } from './funnel-chart';
import { DASHBOARD_SAMPLE, useRecentDomains } from './hooks';
import { countByStatus, weeklyFunnel } from './stats';

function WebhookHealth() {
  const endpoints = useEndpoints();
  const rows = endpoints.data ?? [];
  const failing = rows.filter((e) => !e.enabled && e.disabled_reason !== 'manual');
  return (
    <Section title="Webhook health">
      <DataState
        loading={endpoints.isPending}
        error={endpoints.isError ? errorMessage(endpoints.error) : undefined}
        onRetry={() => endpoints.refetch()}
        empty={rows.length === 0}
        emptyTitle="No webhook endpoints"
        emptyText={<Link to={routes.webhooks.list()}>Add an endpoint</Link>}
      >
        <p>
          {rows.length} endpoints,{' '}
          {failing.length === 0 ? 'none disabled by failures.' : `${failing.length} disabled by failures:`}
        </p>
        <ul>
          {failing.map((e) => (
            <li key={e.id} className="break">
              <Link to={routes.webhooks.detail({ endpointId: e.id })}>{e.url}</Link> ({e.disabled_reason})
            </li>
          ))}
        </ul>
      </DataState>
    </Section>
  );
}

export default function DashboardPage() {
  const session = useSession().data;
  const recent = useRecentDomains();
  const domains = recent.data?.domains;
  const counts = useMemo(() => countByStatus(domains ?? []), [domains]);
  const funnel = useMemo(() => weeklyFunnel(domains ?? []), [domains]);
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Welcome back${session?.user.name ? `, ${session.user.name}` : ''}.`}
      />
      <DataState
        loading={recent.isPending}
        error={recent.isError ? errorMessage(recent.error) : undefined}
        onRetry={() => recent.refetch()}
        empty={domains?.length === 0}
        emptyTitle="No domains yet"
        emptyText={<Link to={routes.domains.create()}>Create your first domain</Link>}
        loadingLabel="Loading your domains…"
      >
        <Section title="Domains by status">
          <div className="grid">
            {DOMAIN_STATUSES.map((s) => (
              <Link key={s} className="stat" to={routes.domains.list({ status: s })}>
                <span className="stat-value">{counts[s]}</span>
                <span className="stat-label">{s.toLowerCase()}</span>
              </Link>
            ))}
          </div>
          {!recent.data?.complete && <p className="muted">Counted over your newest {DASHBOARD_SAMPLE} domains.</p>}
        </Section>
        <Section title="Activation funnel per week">
          <FunnelChart funnel={funnel} />
        </Section>
      </DataState>
      {can(session, 'webhooks:read') && <WebhookHealth />}
    </>
  );
}
