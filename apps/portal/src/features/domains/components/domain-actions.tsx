import type { DomainDetail } from '@platform/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { can, useSession } from '../../../auth/session';
import { routes } from '../../../routes';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { FormMessage } from '../../../ui/field';
import { domainActions, useDomainAction } from '../hooks';

const INVITABLE = ['NEW', 'SCANNED', 'INVITED', 'INACTIVE'];

/** Invite or re-invite, deactivate or activate, scan now and delete, as the domain's status and the role allow. */
export function DomainActions({ domain }: { domain: DomainDetail }) {
  const session = useSession().data;
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const invite = useDomainAction(domain.id, domainActions.invite);
  const deactivate = useDomainAction(domain.id, domainActions.deactivate);
  const activate = useDomainAction(domain.id, domainActions.activate);
  const scan = useDomainAction(domain.id, domainActions.scan);
  const remove = useDomainAction(domain.id, domainActions.remove);
  const failed = [invite, deactivate, activate, scan].find((m) => m.isError);
  const done = invite.isSuccess ? 'The invitation is on its way.' : scan.isSuccess ? 'The scan is queued.' : undefined;
  if (!can(session, 'domains:write')) return null;
  return (
    <div className="page-actions">
      {INVITABLE.includes(domain.status) && (
        <Button variant="primary" busy={invite.isPending} onClick={() => invite.mutate()}>
          {domain.status === 'INVITED' ? 'Re-invite owner' : 'Invite owner'}
        </Button>
      )}
      <Button busy={scan.isPending} onClick={() => scan.mutate()}>
        Scan now
      </Button>
      {domain.status === 'ACTIVE' && (
        <Button busy={deactivate.isPending} onClick={() => deactivate.mutate()}>
          Deactivate
        </Button>
      )}
      {domain.status === 'INACTIVE' && (
        <Button busy={activate.isPending} onClick={() => activate.mutate()}>
          Activate
        </Button>
      )}
      {can(session, 'domains:delete') && (
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Delete
        </Button>
      )}
      {failed && <FormMessage tone="error">{errorMessage(failed.error)}</FormMessage>}
      {done && <FormMessage tone="success">{done}</FormMessage>}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${domain.hostname}?`}
        confirmLabel="Delete domain"
        busy={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, { onSuccess: () => navigate(routes.domains.list(), { replace: true }) })
        }
      >
        The domain, its subdomains, property and subscription are deleted. The widget stops working on the site. This
        cannot be undone.
      </ConfirmDialog>
    </div>
  );
}
