import { routes } from '../routes';

export interface NavItem {
  label: string;
  to: string;
  /** The permission the screen needs (session.permissions); none: every signed-in user. */
  permission?: string;
  group?: string;
}

/** The screens in the sidebar, each shown only to roles whose permissions open it. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', to: routes.dashboard(), permission: 'domains:read' },
  { label: 'Domains', to: routes.domains.list(), permission: 'domains:read' },
  { label: 'Merchants', to: routes.merchants.list(), permission: 'merchants:read' },
  { label: 'API keys', to: routes.apiKeys(), permission: 'api_keys:write', group: 'Integrations' },
  { label: 'Webhooks', to: routes.webhooks.list(), permission: 'webhooks:read', group: 'Integrations' },
  { label: 'E-mail templates', to: routes.emailTemplates.list(), permission: 'templates:read', group: 'Account' },
  { label: 'Team', to: routes.team(), permission: 'users:read', group: 'Account' },
  { label: 'Audit log', to: routes.audit(), permission: 'audit:read', group: 'Account' },
  { label: 'Settings', to: routes.settings(), permission: 'settings:read', group: 'Account' },
  { label: 'Your profile and 2FA', to: routes.account(), group: 'Account' },
];

export const visibleNav = (permissions: readonly string[]) =>
  NAV_ITEMS.filter((item) => !item.permission || permissions.includes(item.permission));
