import type { DataRequest, DsarStatus, DsarType } from '@platform/contracts';

export const REQUEST_TYPE_LABELS: Record<DsarType, string> = {
  access: 'Access',
  deletion: 'Deletion',
  correction: 'Correction',
  opt_out: 'Opt-out of sale/sharing',
  portability: 'Portability',
};

export const REQUEST_STATUS_LABELS: Record<DsarStatus, string> = {
  RECEIVED: 'Awaiting e-mail confirmation',
  VERIFIED: 'New',
  IN_PROGRESS: 'In progress',
  COMPLETED: 'Completed',
  REJECTED: 'Rejected',
  EXPIRED: 'Expired (never confirmed)',
};

export const REQUEST_STATUS_TONES: Record<DsarStatus, string> = {
  RECEIVED: 'gray',
  VERIFIED: 'blue',
  IN_PROGRESS: 'yellow',
  COMPLETED: 'green',
  REJECTED: 'gray',
  EXPIRED: 'gray',
};

const HISTORY_LABELS: Record<DataRequest['history'][number]['kind'], string> = {
  received: 'Received from the form',
  verified: 'Confirmed by the requester',
  status: 'Status changed',
  extended: 'Deadline extended',
  note: 'Note',
  reminded: 'Reminder e-mailed',
  overdue: 'Became overdue',
  expired: 'Expired unconfirmed',
};

/** One history line: what happened, to which status, and the note. */
export function historyText(h: DataRequest['history'][number]): string {
  const status = h.status && h.kind === 'status' ? `: ${REQUEST_STATUS_LABELS[h.status]}` : '';
  return `${HISTORY_LABELS[h.kind]}${status}${h.note ? ` — ${h.note}` : ''}`;
}

/** The due date as a day, or a dash before verification. */
export const dueDay = (r: Pick<DataRequest, 'due_at'>) => (r.due_at ? r.due_at.slice(0, 10) : '—');
