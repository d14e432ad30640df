// One consent record in full: what the visitor chose per category, where and when, the widget's version
// and consent revision, and the signature that proves it (copyable as JSON, as the API answers it).
import type { ConsentRecord } from '@platform/contracts';
import { Button } from '../../../ui/button';
import { CopyButton } from '../../../ui/copy-button';
import { Dialog } from '../../../ui/dialog';
import { Badge, formatDate } from '../../../ui/misc';
import { STATUS_LABELS, STATUS_TONES, TYPE_LABELS } from './labels';

function Choices({ record }: { record: ConsentRecord }) {
  const purposes = record.data_collection[0]?.purposes ?? [];
  if (purposes.length === 0) return <>—</>;
  return (
    <ul className="choices">
      {purposes.map((p) => (
        <li key={p.category}>
          {p.name}: <strong>{p.status === 'GRANTED' ? 'allowed' : 'denied'}</strong>
        </li>
      ))}
    </ul>
  );
}

export function RecordDialog({ record, onClose }: { record: ConsentRecord | null; onClose: () => void }) {
  return (
    <Dialog
      open={record !== null}
      title="Consent record"
      onClose={onClose}
      actions={
        <>
          {record && <CopyButton text={JSON.stringify(record, null, 2)} label="Copy as JSON" />}
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {record && (
        <dl className="facts">
          <dt>Receipt</dt>
          <dd>
            <code>{record.receipt_id}</code>
          </dd>
          <dt>When</dt>
          <dd>{formatDate(record.created_at)}</dd>
          <dt>Type</dt>
          <dd>{TYPE_LABELS[record.receipt_type]}</dd>
          <dt>Choice</dt>
          <dd>
            <Badge tone={STATUS_TONES[record.receipt_status]}>{STATUS_LABELS[record.receipt_status]}</Badge>
          </dd>
          <dt>Categories</dt>
          <dd>
            <Choices record={record} />
          </dd>
          <dt>Where</dt>
          <dd>{[record.region, record.country].filter(Boolean).join(', ') || 'Unknown'}</dd>
          <dt>Law</dt>
          <dd>{record.jurisdiction ?? '—'}</dd>
          <dt>Visitor</dt>
          <dd>
            <code>{record.subject}</code> ({record.subject_auth.toLowerCase()})
          </dd>
          <dt>Widget</dt>
          <dd>
            Version {record.meta.widget_version}, consent revision <code>{record.meta.consent_revision}</code>
            {record.meta.gpc ? ', Global Privacy Control on' : ''}
          </dd>
          <dt>Signature</dt>
          <dd>
            <code className="signature">{record.signature}</code>
          </dd>
        </dl>
      )}
    </Dialog>
  );
}
