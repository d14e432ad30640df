import { useState } from 'react';
import { errorMessage } from '../../api/errors';
import type { ApiKey } from '../../api/pending.schema';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataState } from '../../ui/data-state';
import { Badge, formatDate, PageHeader, TableFrame } from '../../ui/misc';
import { CreateKeyDialog } from './create-key-dialog';
import { useApiKeys, useRevokeApiKey } from './hooks';
import { RollKeyDialog } from './roll-key-dialog';
import { SecretDialog } from '../../ui/secret-dialog';

const stateOf = (key: ApiKey) =>
  key.revoked_at ? 'Revoked' : key.expires_at && new Date(key.expires_at) < new Date() ? 'Expired' : 'Active';

function KeyRow({ apiKey, onRoll, onRevoke }: { apiKey: ApiKey; onRoll: () => void; onRevoke: () => void }) {
  const state = stateOf(apiKey);
  return (
    <tr>
      <td>
        <strong>{apiKey.name}</strong>
        <br />
        <code>{apiKey.prefix}…</code>
      </td>
      <td>
        <Badge tone={state === 'Active' ? 'green' : 'gray'}>{state}</Badge>
      </td>
      <td className="hide-sm">{apiKey.permissions.join(', ')}</td>
      <td className="nowrap">{apiKey.last_used_at ? formatDate(apiKey.last_used_at) : 'Never'}</td>
      <td className="hide-sm">{apiKey.created_by?.email ?? '—'}</td>
      <td className="hide-sm nowrap">{formatDate(apiKey.expires_at, false)}</td>
      <td>
        {state === 'Active' && (
          <div className="row-actions">
            <Button className="btn-small" onClick={onRoll} aria-label={`Roll ${apiKey.name}`}>
              Roll
            </Button>
            <Button className="btn-small" variant="danger" onClick={onRevoke} aria-label={`Revoke ${apiKey.name}`}>
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
      <DataState
        loading={keys.isPending}
        error={keys.isError ? errorMessage(keys.error) : undefined}
        onRetry={() => keys.refetch()}
        empty={rows.length === 0}
        emptyTitle="No API keys yet"
        emptyText="Create a key to call the API from your systems."
        loadingLabel="Loading API keys…"
      >
        <TableFrame label="API keys">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">State</th>
              <th scope="col" className="hide-sm">
                Permissions
              </th>
              <th scope="col">Last used</th>
              <th scope="col" className="hide-sm">
                Created by
              </th>
              <th scope="col" className="hide-sm">
                Expires
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((k) => (
              <KeyRow key={k.id} apiKey={k} onRoll={() => setRolling(k)} onRevoke={() => setRevoking(k)} />
            ))}
          </tbody>
        </TableFrame>
      </DataState>
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
        title={`Revoke “${revoking?.name ?? ''}”?`}
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
