import { useState } from 'react';
import { errorMessage } from '../../api/errors';
import type { ApiKey } from '../../api/types';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { queryState } from '../../api/query-state';
import { ListSection, type ListColumn } from '../../ui/list-section';
import { Badge, formatDate, PageHeader } from '../../ui/misc';
import { CreateKeyDialog } from './create-key-dialog';
import { keyLabel, useApiKeys, useRevokeApiKey } from './hooks';
import { RollKeyDialog } from './roll-key-dialog';
import { SecretDialog } from '../../ui/secret-dialog';

const stateOf = (key: ApiKey) =>
  key.revoked_at ? 'Revoked' : key.expires_at && new Date(key.expires_at) < new Date() ? 'Expired' : 'Active';

const COLUMNS: ListColumn[] = [
  { label: 'Key' },
  { label: 'State' },
  { label: 'Permissions', className: 'hide-sm' },
  { label: 'Last used' },
  { label: 'Created by', className: 'hide-sm' },
  { label: 'Expires', className: 'hide-sm' },
  { label: 'Actions', hidden: true },
];

/** A count that opens to the list: nine permissions side by side would not fit a 1280 px screen. */
function Permissions({ permissions }: { permissions: readonly string[] }) {
  const count = `${permissions.length} ${permissions.length === 1 ? 'permission' : 'permissions'}`;
  return (
    <details className="permissions">
      <summary>{count}</summary>
      <ul>
        {permissions.map((p) => (
          <li key={p}>
            <code>{p}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}

function KeyRow({ apiKey, onRoll, onRevoke }: { apiKey: ApiKey; onRoll: () => void; onRevoke: () => void }) {
  const state = stateOf(apiKey);
  return (
    <tr>
      <td className="key-cell">
        <strong>{apiKey.name ?? 'Unnamed key'}</strong>
        <br />
        <code className="key-prefix">{apiKey.prefix}…</code>
      </td>
      <td>
        <Badge tone={state === 'Active' ? 'green' : 'gray'}>{state}</Badge>
      </td>
      <td className="hide-sm">
        <Permissions permissions={apiKey.permissions} />
      </td>
      <td>{apiKey.last_used_at ? formatDate(apiKey.last_used_at) : 'Never'}</td>
      <td className="hide-sm break">{apiKey.created_by?.email ?? '—'}</td>
      <td className="hide-sm nowrap">{formatDate(apiKey.expires_at, false)}</td>
      <td>
        {state === 'Active' && (
          <div className="row-actions">
            <Button className="btn-small" onClick={onRoll} aria-label={`Roll ${keyLabel(apiKey)}`}>
              Roll
            </Button>
            <Button className="btn-small" variant="danger" onClick={onRevoke} aria-label={`Revoke ${keyLabel(apiKey)}`}>
              Revoke
            </Button>
          </div>
        )}
      </td>
    </tr>
  );
}

export default function ApiKeysPage() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const rows = keys.data ?? [];
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let your systems call the partner API. Give each system its own key with only the permissions it needs."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create API key
          </Button>
        }
      />
      <ListSection
        {...queryState(keys)}
        loadingLabel="Loading API keys…"
        empty={rows.length === 0}
        emptyTitle="No API keys yet"
        emptyText="Create a key to call the API from your systems."
        table={{ label: 'API keys', columns: COLUMNS }}
      >
        {rows.map((k) => (
          <KeyRow key={k.id} apiKey={k} onRoll={() => setRolling(k)} onRevoke={() => setRevoking(k)} />
        ))}
      </ListSection>
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(value) => (setCreating(false), setSecret({ title: 'Your new API key', value }))}
      />
      <RollKeyDialog
        apiKey={rolling}
        onClose={() => setRolling(null)}
        onRolled={(value) => (setRolling(null), setSecret({ title: 'The rolled key’s new secret', value }))}
      />
      <SecretDialog title={secret?.title ?? ''} secret={secret?.value ?? null} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking ? keyLabel(revoking) : ''}”?`}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        error={revoke.isError ? errorMessage(revoke.error) : undefined}
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
      >
        Calls with this key fail at once. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
