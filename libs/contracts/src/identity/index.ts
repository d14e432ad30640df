import { apiKeyRoutes } from './api-keys.routes';
import { auditEventRoutes } from './audit-events.routes';
import { authRoutes } from './auth.routes';
import { accessUserRoutes, ownerSessionRoutes } from './owner-access.routes';
import { ownerConsoleRoutes } from './owner-console.routes';
import { ownerRequestRoutes } from './owner-requests.routes';
import { settingsRoutes } from './settings.routes';
import { userRoutes } from './users.routes';

export * from './identity.schema';
export * from './owner-access.schema';
export * from './owner-console.schema';
export {
  accessUserRoutes,
  apiKeyRoutes,
  auditEventRoutes,
  authRoutes,
  ownerConsoleRoutes,
  ownerRequestRoutes,
  ownerSessionRoutes,
  settingsRoutes,
  userRoutes,
};

/** Every route the gateway answers itself (sign-in, team, API keys, audit log, settings, the customer's access users). */
export const identityRoutes = [
  ...authRoutes,
  ...userRoutes,
  ...apiKeyRoutes,
  ...auditEventRoutes,
  ...settingsRoutes,
  ...accessUserRoutes,
  ...ownerSessionRoutes,
  ...ownerConsoleRoutes,
];
