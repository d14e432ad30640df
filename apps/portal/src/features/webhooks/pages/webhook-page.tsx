import { Link, useParams } from 'react-router';
import { queryState } from '../../../api/query-state';
import { can, useSession } from '../../../auth/session';
import { routes } from '../../../routes';
import { DataState } from '../../../ui/data-state';
import { Badge, formatDate, PageHeader, Section } from '../../../ui/misc';
import { Deliveries } from '../components/deliveries';
import { EndpointActions } from '../components/endpoint-actions';
import { useEndpoint } from '../hooks';

export default function WebhookPage() {
  const { endpointId = '' } = useParams();
  const writable = can(useSession().data, 'webhooks:write');
  const endpoint = useEndpoint(endpointId);
  const e = endpoint.data;
  return (
    <DataState {...queryState(endpoint)} loadingLabel="Loading the endpoint…">
      {e && (
        <>
          <p>
            <Link to={routes.webhooks.list()}>← Webhooks</Link>
          </p>
          <PageHeader title="Webhook endpoint" description={<span className="break">{e.url}</span>} />
          <div className="two-columns">
            <Section title="Endpoint">
              <dl className="facts">
                <dt>State</dt>
                <dd>
                  <Badge>{e.enabled ? 'Enabled' : 'Disabled'}</Badge> {e.disabled_reason && `(${e.disabled_reason})`}
                </dd>
                <dt>Events</dt>
                <dd>{e.events ? e.events.join(', ') : 'Every event'}</dd>
                <dt>Description</dt>
                <dd>{e.description || '—'}</dd>
                <dt>Old secret signs until</dt>
                <dd>{formatDate(e.previous_secret_expires_at)}</dd>
                <dt>Created</dt>
                <dd>{formatDate(e.created_at)}</dd>
              </dl>
            </Section>
            {writable && <EndpointActions endpoint={e} />}
          </div>
          <Deliveries endpointId={e.id} />
        </>
      )}
    </DataState>
  );
}
