// One data subject request in full: who asked what, its due date (and extension), its history, and
// the owner's actions: start work, complete or reject (the note is e-mailed to the requester), extend
// the deadline once with a reason, add a note. A VIEWER sees it without the actions.
import { DSAR_OPEN_STATUSES, type DataRequest, type UpdateDataRequestBody } from '@platform/contracts';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextArea, TextField } from '../../../ui/field';
import { Badge, formatDate } from '../../../ui/misc';
import { ownerErrorMessage } from '../api';
import { useUpdateRequest } from './hooks';
import { dueDay, historyText, REQUEST_STATUS_LABELS, REQUEST_STATUS_TONES, REQUEST_TYPE_LABELS } from './labels';

function Facts({ request: r }: { request: DataRequest }) {
  return (
    <dl className="facts">
      <dt>Request</dt>
      <dd>
        <code>{r.request_id}</code>
      </dd>
      <dt>Type</dt>
      <dd>{REQUEST_TYPE_LABELS[r.type]}</dd>
      <dt>Status</dt>
      <dd>
        <Badge tone={REQUEST_STATUS_TONES[r.status]}>{REQUEST_STATUS_LABELS[r.status]}</Badge>
        {r.overdue && <strong className="request-overdue-text"> Overdue</strong>}
      </dd>
      <dt>From</dt>
      <dd>{[r.name, r.email].filter(Boolean).join(' · ')}</dd>
      <dt>Due</dt>
      <dd>
        {dueDay(r)} ({r.deadline_rule === 'US_STATE' ? '45 days, US state law' : '30 days, GDPR'})
        {r.extended_at && ` — extended: ${r.extension_reason ?? ''}`}
      </dd>
      {r.message && (
        <>
          <dt>Message</dt>
          <dd className="request-message">{r.message}</dd>
        </>
      )}
      <dt>History</dt>
      <dd>
        <ol className="request-history">
          {r.history.map((h, i) => (
            <li key={i}>
              <time dateTime={h.at}>{formatDate(h.at)}</time> {historyText(h)}
            </li>
          ))}
        </ol>
      </dd>
    </dl>
  );
}

function Actions({ request: r, domainId }: { request: DataRequest; domainId: string }) {
  const update = useUpdateRequest(domainId);
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const send = (body: UpdateDataRequestBody) => {
    setError(undefined);
    update.mutate(
      { requestId: r.request_id, body },
      {
        onSuccess: () => {
          setNote('');
          setReason('');
        },
        onError: (e) => setError(ownerErrorMessage(e)),
      },
    );
  };
  const withNote = note.trim() ? { note: note.trim() } : {};
  const open = DSAR_OPEN_STATUSES.includes(r.status);
  if (!open) return null;
  return (
    <form className="request-actions" aria-label="Work this request" onSubmit={(e) => e.preventDefault()}>
      <TextArea
        label="Note (e-mailed to the requester when you complete or reject)"
        value={note}
        maxLength={2000}
        rows={3}
        onChange={(e) => setNote(e.target.value)}
      />
      <div className="actions-row">
        {r.status === 'VERIFIED' && (
          <Button onClick={() => send({ status: 'IN_PROGRESS', ...withNote })} disabled={update.isPending}>
            Start work
          </Button>
        )}
        <Button
          variant="primary"
          onClick={() => send({ status: 'COMPLETED', ...withNote })}
          disabled={update.isPending}
        >
          Complete
        </Button>
        <Button
          variant="danger"
          onClick={() =>
            note.trim()
              ? send({ status: 'REJECTED', note: note.trim() })
              : setError('Say why in the note: the requester is told.')
          }
          disabled={update.isPending}
        >
          Reject
        </Button>
        <Button onClick={() => note.trim() && send({ note: note.trim() })} disabled={update.isPending || !note.trim()}>
          Add note
        </Button>
      </div>
      {!r.extended_at && (
        <div className="actions-row">
          <TextField
            label="Reason for an extension"
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
          />
          <Button
            onClick={() => send({ extend: { reason: reason.trim() } })}
            disabled={update.isPending || !reason.trim()}
          >
            Extend deadline ({r.deadline_rule === 'US_STATE' ? '+45' : '+60'} days)
          </Button>
        </div>
      )}
      {error && <FormMessage tone="error">{error}</FormMessage>}
    </form>
  );
}

export function RequestDialog(props: {
  request: DataRequest | null;
  domainId: string;
  canWork: boolean;
  onClose: () => void;
}) {
  const { request, domainId, canWork, onClose } = props;
  return (
    <Dialog
      open={request !== null}
      title="Data subject request"
      onClose={onClose}
      actions={
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {request && <Facts request={request} />}
      {request && canWork && <Actions key={request.request_id} request={request} domainId={domainId} />}
    </Dialog>
  );
}
