// The portal-session, team, API-key, audit, settings and e-mail template routes as agreed in issue 26's
// contract (notes i26.md). Other branches add them to libs/contracts (identity/*.routes.ts,
// domains/email-templates.routes.ts); until those are merged the portal declares them here, with
// the same defineRoute shape, so swapping to the contracts' tables changes imports only.
import { z } from 'zod';
import {
  AUDIT_KINDS,
  OPTIONALLY_REQUIRED_FIELDS,
  PERMISSIONS,
  paginationQuerySchema,
  userRoleSchema,
} from '@platform/contracts';

export const SESSION_STAGES = ['ACTIVE', 'TOTP_REQUIRED', 'TOTP_ENROLMENT_REQUIRED'] as const;
export const USER_STATUSES = ['INVITED', 'ACTIVE', 'DEACTIVATED'] as const;

export const sessionSchema = z.object({
  stage: z.enum(SESSION_STAGES),
  user: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: userRoleSchema,
    totp_enabled: z.boolean(),
  }),
  partner: z.object({ id: z.string(), name: z.string(), totp_required: z.boolean() }),
  permissions: z.array(z.string()),
  csrf_token: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;

export const signInLinkBodySchema = z.object({ email: z.email('must be an e-mail address').max(254) });
export const totpCodeSchema = z.string().regex(/^\d{6}$/, 'must be the 6 digits your app shows');
export const sessionTotpBodySchema = z.union([
  z.object({ code: totpCodeSchema }),
  z.object({ recovery_code: z.string().trim().min(1, 'is required') }),
]);

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: userRoleSchema,
  status: z.enum(USER_STATUSES),
  totp_enabled: z.boolean(),
  last_sign_in_at: z.string().nullable(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;
export const inviteUserBodySchema = z.object({
  email: z.email('must be an e-mail address').max(254),
  name: z.string().trim().max(100).optional(),
  role: userRoleSchema,
});
export const updateUserBodySchema = z.object({
  role: userRoleSchema.optional(),
  active: z.boolean().optional(),
  name: z.string().trim().max(100).optional(),
});
export const userIdParams = z.object({ userId: z.string().min(1) });

export const KEY_PERMISSIONS = PERMISSIONS;
export const apiKeySchema = z.object({
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  permissions: z.array(z.string()),
  allowed_ip: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_by: z.object({ type: z.enum(['USER', 'OPERATOR']), id: z.string(), email: z.string() }).nullable(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  rolled_to: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyWithSecretSchema = apiKeySchema.extend({ secret: z.string() });
export const createApiKeyBodySchema = z.object({
  name: z.string().trim().min(1, 'is required').max(100),
  permissions: z.array(z.enum(PERMISSIONS)).min(1, 'choose at least one permission'),
  allowed_ip: z.string().trim().min(1).optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
});
export const rollApiKeyBodySchema = z.object({ overlap_hours: z.number().int().min(0).max(168) });
export const keyIdParams = z.object({ keyId: z.string().min(1) });

export const auditEventSchema = z.object({
  id: z.string(),
  kind: z.enum(AUDIT_KINDS),
  actor: z.object({ type: z.enum(['USER', 'API_KEY', 'OPERATOR']), id: z.string(), label: z.string() }),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
export const listAuditQuerySchema = paginationQuerySchema.extend({
  actor_id: z.string().optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
});

export const settingsSchema = z.object({
  name: z.string(),
  default_product: z.string().nullable(),
  default_price_list: z.string().nullable(),
  required_fields: z.array(z.enum(OPTIONALLY_REQUIRED_FIELDS)),
  totp_required: z.boolean(),
});
export type PartnerSettings = z.infer<typeof settingsSchema>;
export const updateSettingsBodySchema = z.object({
  name: z.string().trim().min(1, 'is required').max(200).optional(),
  default_product: z.string().trim().min(1).max(64).nullable().optional(),
  default_price_list: z.string().trim().min(1).max(64).nullable().optional(),
  required_fields: z.array(z.enum(OPTIONALLY_REQUIRED_FIELDS)).optional(),
  totp_required: z.boolean().optional(),
});

export const EMAIL_TEMPLATE_KINDS = ['INVITATION', 'INTRO', 'SCAN_REPORT', 'ACTIVATION_REMINDER'] as const;
export const emailTemplateSchema = z.object({
  kind: z.enum(EMAIL_TEMPLATE_KINDS),
  subject: z.string(),
  body: z.string(),
  customized: z.boolean(),
  variables: z.array(z.string()),
  updated_at: z.string().nullable(),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;
export const emailTemplateBodySchema = z.object({
  subject: z.string().trim().min(1, 'is required').max(200),
  body: z.string().min(1, 'is required').max(50_000),
});
export const kindParams = z.object({ kind: z.enum(EMAIL_TEMPLATE_KINDS) });
