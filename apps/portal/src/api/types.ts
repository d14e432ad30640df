// The wire types the portal's screens name, as libs/contracts defines them.
export type { ApiKey, AuditEvent, PartnerSettings } from '@platform/contracts';
