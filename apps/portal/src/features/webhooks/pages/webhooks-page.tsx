import { useState } from 'react';
import { Link } from 'react-router';
import { queryState } from '../../../api/query-state';
import { can, useSession } from '../../../auth/session';
import { routes } from '../../../routes';
import { Button } from '../../../ui/button';
import { ListSection, type ListColumn } from '../../../ui/list-section';
import { Badge, formatDate, PageHeader } from '../../../ui/misc';
import { SecretDialog } from '../../../ui/secret-dialog';
import { CreateEndpointDialog } from '../components/create-endpoint-dialog';
import { EventCatalogue } from '../components/event-catalogue';
import { useEndpoints } from '../hooks';

const COLUMNS: ListColumn[] = [
  { label: 'URL' },
  { label: 'State' },
  { label: 'Events', className: 'hide-sm' },
  { label: 'Created', className: 'hide-sm' },
];

export default function WebhooksPage() {
  const writable = can(useSession().data, 'webhooks:write');
  const endpoints = useEndpoints();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const rows = endpoints.data ?? [];
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints of yours that get an HTTP POST, signed with Standard Webhooks, for each event."
        actions={
          writable && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              Add endpoint
            </Button>
          )
        }
      />
      <ListSection
        {...queryState(endpoints)}
        loadingLabel="Loading endpoints…"
        empty={rows.length === 0}
        emptyTitle="No endpoints yet"
        emptyText="Add an endpoint to hear about domains, subscriptions and consent as they happen."
        table={{ label: 'Webhook endpoints', columns: COLUMNS }}
      >
        {rows.map((e) => (
          <tr key={e.id}>
            <td className="break">
              <Link to={routes.webhooks.detail({ endpointId: e.id })}>{e.url}</Link>
              {e.description && <div className="muted">{e.description}</div>}
            </td>
            <td>
              <Badge>{e.enabled ? 'Enabled' : 'Disabled'}</Badge>
              {e.disabled_reason && <div className="muted">{e.disabled_reason}</div>}
            </td>
            <td className="hide-sm">{e.events ? e.events.join(', ') : 'Every event'}</td>
            <td className="hide-sm nowrap">{formatDate(e.created_at, false)}</td>
          </tr>
        ))}
      </ListSection>
      <EventCatalogue />
      <CreateEndpointDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(value) => (setCreating(false), setSecret(value))}
      />
      <SecretDialog title="Your endpoint's signing secret" secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
