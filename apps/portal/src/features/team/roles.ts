import type { UserRole } from '@platform/contracts';

export const ROLE_LABELS: Record<UserRole, string> = {
  ADMINISTRATOR: 'Administrator',
  ACCOUNT_MANAGER: 'Account manager',
  DEVELOPER: 'Developer',
};
