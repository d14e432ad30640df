// The wire types the portal's screens name, inferred from the contracts' schemas (which export no type for them).
import type { z } from 'zod';
import type { apiKeySchema, auditEventSchema, partnerSettingsSchema } from '@platform/contracts';

export type ApiKey = z.output<typeof apiKeySchema>;
export type AuditEvent = z.output<typeof auditEventSchema>;
export type PartnerSettings = z.output<typeof partnerSettingsSchema>;
