import { z } from 'zod';

/**
 * The roles one image runs as, picked per process by an env variable: `api` serves the routes
 * (and whatever else the service runs beside them), each worker role is a background feature of
 * the service, and `all` (the default, what npm start runs) is every one of them. E.g.
 * `{ env: 'WEBHOOK_ROLE', workers: ['worker'] }` accepts WEBHOOK_ROLE=api, worker or all.
 */
export interface RolesOption {
  env: string;
  workers: readonly string[];
}

/** The role every service has: its routes. */
export const API_ROLE = 'api';
const ALL = 'all';

/** The env variable's schema: one role, or all of them (default). */
export const roleSchema = (roles: RolesOption) =>
  z.enum([API_ROLE, ...roles.workers, ALL] as [string, ...string[]]).default(ALL);

/**
 * Whether this process runs a role, from the env variable's parsed value. A service without
 * roles runs its routes only; asking for a role the service does not declare is a bug, and throws.
 */
export function roleCheck(roles: RolesOption | undefined, chosen: string | undefined): (role: string) => boolean {
  const declared = [API_ROLE, ...(roles?.workers ?? [])];
  return (role) => {
    if (!declared.includes(role)) throw new Error(`unknown role ${role} (declared: ${declared.join(', ')})`);
    return roles === undefined ? role === API_ROLE : chosen === ALL || chosen === role;
  };
}
