import { z } from 'zod';

export const PERMISSIONS = [
  'domains:read',
  'domains:write',
  'subscriptions:write',
  'products:read',
  'merchants:read',
  'merchants:write',
  'records:read',
  'webhooks:read',
  'webhooks:write',
  'instance:read',
  'instance:write',
] as const;
export const permissionSchema = z.enum(PERMISSIONS);
/** What an API key may hold (the spec's permissions). */
export type Permission = z.infer<typeof permissionSchema>;

/**
 * What only a signed-in portal user's role grants, never an API key: managing keys, the team,
 * e-mail templates and settings, reading the audit log, and deleting domains (a route's
 * userPermission: keys keep deleting with domains:write, as the spec says).
 */
export const USER_PERMISSIONS = [
  'api_keys:write',
  'users:read',
  'users:write',
  'templates:read',
  'templates:write',
  'settings:read',
  'settings:write',
  'audit:read',
  'domains:delete',
] as const;
export type UserPermission = (typeof USER_PERMISSIONS)[number];

/** A portal user's role (see ROLE_PERMISSIONS). */
export const USER_ROLES = ['ADMINISTRATOR', 'ACCOUNT_MANAGER', 'DEVELOPER'] as const;
export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

/** What each role may do: ADMINISTRATOR everything; ACCOUNT_MANAGER reads the team and settings; DEVELOPER has no team and deletes no domain. */
export const ROLE_PERMISSIONS: Record<UserRole, ReadonlyArray<Permission | UserPermission>> = {
  ADMINISTRATOR: [...PERMISSIONS, ...USER_PERMISSIONS],
  ACCOUNT_MANAGER: [
    ...PERMISSIONS,
    'api_keys:write',
    'users:read',
    'templates:read',
    'templates:write',
    'settings:read',
    'audit:read',
    'domains:delete',
  ],
  DEVELOPER: [...PERMISSIONS, 'api_keys:write', 'templates:read', 'templates:write', 'settings:read'],
};

export const SERVICES = ['domains', 'billing', 'merchants', 'consent', 'webhooks'] as const;
export type ServiceName = (typeof SERVICES)[number];
/** Who answers a route: a service, or the gateway itself (sign-in, users, API keys, audit events). */
export type RouteOwner = ServiceName | 'gateway';

/** Roles within the customer's own account (the owner console), not the partner's: VIEWER < ADMIN < OWNER. */
export const ACCESS_ROLES = ['OWNER', 'ADMIN', 'VIEWER'] as const;
export const accessRoleSchema = z.enum(ACCESS_ROLES);
export type AccessRole = z.infer<typeof accessRoleSchema>;

const ACCESS_ROLE_RANK: Record<AccessRole, number> = { VIEWER: 0, ADMIN: 1, OWNER: 2 };

/** Whether an access user's role is at least the one a route needs. */
export const accessRoleAtLeast = (role: AccessRole, needed: AccessRole): boolean =>
  ACCESS_ROLE_RANK[role] >= ACCESS_ROLE_RANK[needed];
