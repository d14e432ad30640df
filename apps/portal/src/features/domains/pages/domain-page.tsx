import type { DomainDetail } from '@platform/contracts';
import { Link, useLocation, useParams } from 'react-router';
import { queryState } from '../../../api/query-state';
import { can, useSession } from '../../../auth/session';
import { routes } from '../../../routes';
import { DataState } from '../../../ui/data-state';
import { FormMessage } from '../../../ui/field';
import { Badge, formatDate, PageHeader, Section } from '../../../ui/misc';
import { WidgetSnippet } from '../../../ui/widget-snippet';
import { ConsentRecordsCard } from '../components/consent-records-card';
import { DomainFiguresCard } from '../../figures/domain-figures-card';
import { DomainActions } from '../components/domain-actions';
import { ScanCard } from '../components/scan-card';
import { SubdomainsCard } from '../components/subdomains-card';
import { SubscriptionCard } from '../components/subscription-card';
import { useDomain } from '../hooks';

function Overview({ domain }: { domain: DomainDetail }) {
  const company = domain.property.company;
  return (
    <Section title="Overview">
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <Badge>{domain.status}</Badge>
        </dd>
        <dt>Company</dt>
        <dd>{company.name}</dd>
        <dt>Owner</dt>
        <dd>{domain.email}</dd>
        <dt>Source</dt>
        <dd>{domain.source}</dd>
        <dt>Created</dt>
        <dd>{formatDate(domain.created_at)}</dd>
        <dt>Widget first loaded</dt>
        <dd>{formatDate(domain.activated_at)}</dd>
        <dt>Domain id</dt>
        <dd>
          <code>{domain.id}</code>
        </dd>
      </dl>
    </Section>
  );
}

function Merchants({ domain }: { domain: DomainDetail }) {
  return (
    <Section title="Merchants">
      {domain.merchants.length === 0 ? (
        <p className="muted">No merchant is linked to this domain.</p>
      ) : (
        <ul>
          {domain.merchants.map((m) => (
            <li key={m}>
              <Link to={routes.merchants.list({ merchant_id: m })}>{m}</Link>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export default function DomainPage() {
  const { domainId = '' } = useParams();
  const created = (useLocation().state as { created?: boolean } | null)?.created;
  const domain = useDomain(domainId);
  const session = useSession().data;
  return (
    <DataState {...queryState(domain)} loadingLabel="Loading the domain…">
      {domain.data && (
        <>
          <p>
            <Link to={routes.domains.list()}>← Domains</Link>
          </p>
          <PageHeader title={domain.data.hostname} actions={<DomainActions domain={domain.data} />} />
          {created && <FormMessage tone="success">The domain was created.</FormMessage>}
          <div className="two-columns">
            <div>
              <Overview domain={domain.data} />
              <SubscriptionCard domain={domain.data} />
              <Merchants domain={domain.data} />
              {can(session, 'records:read') && <ConsentRecordsCard domainId={domain.data.id} />}
              {can(session, 'instance:read') && (
                <DomainFiguresCard domainId={domain.data.id} hostname={domain.data.hostname} />
              )}
            </div>
            <div>
              <WidgetSnippet code={domain.data.privacy_widget} />
              <ScanCard domainId={domain.data.id} />
              <SubdomainsCard domainId={domain.data.id} hostname={domain.data.hostname} />
            </div>
          </div>
        </>
      )}
    </DataState>
  );
}
