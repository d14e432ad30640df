// What the import screen calls the contract's values. Keyed by the enums' types, so a value added to
// or renamed in libs/contracts fails to compile here until it has its words.
import {
  importActionSchema,
  importModeSchema,
  type ImportAction,
  type ImportMode,
  type ImportRowState,
} from '@platform/contracts';

const ACTION_LABELS: Record<ImportAction, string> = {
  ENROLL: 'Enroll',
  ENROLL_SCAN: 'Enroll and scan',
  ENROLL_SCAN_REPORT: 'Enroll, scan and send the report',
};

export const ACTION_OPTIONS = importActionSchema.options.map((value) => ({ value, label: ACTION_LABELS[value] }));

export const MODE_LABELS: Record<ImportMode, { label: string; explanation: string }> = {
  ADD: { label: 'Add', explanation: 'Creates the domains in the file you do not have yet; nothing else changes.' },
  SYNC: {
    label: 'Sync',
    explanation:
      'Also reactivates your inactive domains in the file, and deactivates your ACTIVE domains missing from it.',
  },
};
export const MODES = importModeSchema.options;

export const ROW_STATE_LABELS: Record<ImportRowState, string> = {
  PENDING: 'Waiting',
  DONE: 'Done',
  FAILED: 'Failed',
  SKIPPED: 'Skipped',
};
