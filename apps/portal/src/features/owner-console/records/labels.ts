import type { ReceiptStatus, ReceiptType } from '@platform/contracts';

export const TYPE_LABELS: Record<ReceiptType, string> = {
  COOKIE_CONSENT: 'Cookie consent',
  AGE_CONFIRMATION: 'Age confirmation',
  WIRETAPPING: 'Wiretapping',
  VPPA: 'Video privacy (VPPA)',
};
export const STATUS_LABELS: Record<ReceiptStatus, string> = {
  ALLOWED: 'Allowed all',
  PARTIAL: 'Allowed some',
  DENIED: 'Denied',
};
export const STATUS_TONES: Record<ReceiptStatus, string> = { ALLOWED: 'green', PARTIAL: 'yellow', DENIED: 'gray' };
