import { apiKeyRoutes } from './api-keys.routes';
import { auditEventRoutes } from './audit-events.routes';
import { authRoutes } from './auth.routes';
import { settingsRoutes } from './settings.routes';
import { userRoutes } from './users.routes';

export * from './identity.schema';
export { apiKeyRoutes, auditEventRoutes, authRoutes, settingsRoutes, userRoutes };

/** Every route the gateway answers itself (sign-in, team, API keys, audit log, settings). */
export const identityRoutes = [...authRoutes, ...userRoutes, ...apiKeyRoutes, ...auditEventRoutes, ...settingsRoutes];
