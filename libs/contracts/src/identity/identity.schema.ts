import { z } from 'zod';
import { dateTime, paginationQuerySchema, singleLine } from '../common';
import { REQUIRED_FIELDS } from '../domains/domain.schema';
import { onboardingWidgetsSchema } from '../onboarding/onboarding.schema';
import { AUDIT_KINDS } from '../routes';
import { PERMISSIONS, userRoleSchema } from '../permissions';

/** The session cookie's name, and the header a cookie-authenticated write must send. */
export const SESSION_COOKIE = 'pp_session';
export const CSRF_HEADER = 'x-csrf-token';

/** An e-mail address as users type it: trimmed and lower-cased before it is stored or compared. */
export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email('must be an e-mail address'))
  .transform((e) => e.toLowerCase())
  .meta({ example: 'ada@example.com' });

const userName = singleLine(z.string().trim().min(1).max(200));

export const USER_STATUSES = ['INVITED', 'ACTIVE', 'DEACTIVATED'] as const;
export const SESSION_STAGES = ['ACTIVE', 'TOTP_REQUIRED', 'TOTP_ENROLMENT_REQUIRED'] as const;

// --- sign-in and sessions

export const signInLinkBodySchema = z.object({ email: emailSchema });
export const signInLinkSentSchema = z.object({ sent: z.literal(true) });

export const createSessionBodySchema = z.object({
  token: z.string().min(1).max(200).meta({ description: 'The token of the sign-in link (after #token=)' }),
});

export const totpCodeSchema = z.string().regex(/^\d{6}$/, 'must be the 6-digit code of your authenticator app');
export const recoveryCodeSchema = z.string().trim().min(8).max(64);

export const sessionTotpBodySchema = z
  .object({ code: totpCodeSchema.optional(), recovery_code: recoveryCodeSchema.optional() })
  .refine((b) => (b.code === undefined) !== (b.recovery_code === undefined), 'send either code or recovery_code');

export const sessionSchema = z
  .object({
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
    csrf_token: z.string().meta({ description: 'Send it as X-CSRF-Token on every write made with the session cookie' }),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;

export const totpEnrolmentSchema = z
  .object({ secret: z.string(), otpauth_uri: z.string() })
  .meta({ id: 'TotpEnrolment' });
export const totpConfirmBodySchema = z.object({ code: totpCodeSchema });
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()).length(10) });

// --- users

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: userRoleSchema,
    status: z.enum(USER_STATUSES),
    totp_enabled: z.boolean(),
    last_sign_in_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const userIdParamsSchema = z.object({ userId: z.string().min(1).meta({ description: 'User id' }) });
export const listUsersQuerySchema = paginationQuerySchema;
export const createUserBodySchema = z.object({ email: emailSchema, name: userName.optional(), role: userRoleSchema });
export const updateUserBodySchema = z
  .object({ role: userRoleSchema.optional(), active: z.boolean().optional(), name: userName.nullable().optional() })
  .refine((b) => Object.keys(b).length > 0, 'send at least one of role, active, name');

// --- API keys

const keyPermissionSchema = z.enum(PERMISSIONS);

export const apiKeySchema = z
  .object({
    id: z.string(),
    prefix: z.string(),
    name: z.string().nullable(),
    permissions: z.array(z.string()),
    allowed_ip: z.string().nullable(),
    expires_at: z.string().nullable(),
    created_by: z
      .object({ type: z.enum(['USER', 'OPERATOR']), id: z.string().nullable(), email: z.string().nullable() })
      .nullable(),
    last_used_at: z.string().nullable().meta({ description: 'Recorded within about a minute of use' }),
    created_at: z.string(),
    rolled_to: z.string().nullable().meta({ description: 'The key that replaced this one by a roll' }),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export const apiKeyWithSecretSchema = apiKeySchema
  .extend({ secret: z.string().meta({ description: 'The full key: shown only in this answer' }) })
  .meta({ id: 'ApiKeyWithSecret' });
/** An API key as the portal's routes answer it (never its secret but in a create or roll answer). */
export type ApiKey = z.output<typeof apiKeySchema>;

export const apiKeyIdParamsSchema = z.object({ keyId: z.string().min(1).meta({ description: 'API key id' }) });
export const listApiKeysQuerySchema = paginationQuerySchema;
export const createApiKeyBodySchema = z.object({
  name: singleLine(z.string().trim().min(1).max(100)),
  permissions: z.array(keyPermissionSchema).min(1),
  allowed_ip: z.union([z.ipv4(), z.ipv6()], { message: 'must be an IPv4 or IPv6 address' }).nullable().optional(),
  expires_at: dateTime()
    .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
    .nullable()
    .optional(),
});
export const ROLL_OVERLAP_HOURS_MAX = 168;
export const rollApiKeyBodySchema = z.object({
  overlap_hours: z
    .number()
    .int()
    .min(0)
    .max(ROLL_OVERLAP_HOURS_MAX)
    .meta({ description: 'How long the old key keeps working beside the new one (0: it stops at once)' }),
});

// --- audit events

/** Who did it: a partner's user, an API key, an operator (admin CLI), or a customer's user in the owner console. */
export const ACTOR_TYPES = ['USER', 'API_KEY', 'OPERATOR', 'OWNER'] as const;
export const auditEventSchema = z
  .object({
    id: z.string(),
    kind: z.enum(AUDIT_KINDS),
    actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string().nullable(), label: z.string() }),
    target: z.object({ type: z.string(), id: z.string() }).nullable(),
    details: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.output<typeof auditEventSchema>;
export const listAuditEventsQuerySchema = paginationQuerySchema.extend({
  actor_id: z.string().min(1).max(100).optional().meta({ description: "Only this actor's events (a user or key id)" }),
  kind: z.enum(AUDIT_KINDS).optional(),
});

// --- partner settings

export const partnerSettingsSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    default_product: z.string().nullable(),
    default_price_list: z.string().nullable(),
    required_fields: z.array(z.enum(REQUIRED_FIELDS)),
    totp_required: z.boolean(),
    onboarding_widgets: onboardingWidgetsSchema.meta({
      description: 'The registration and scan widgets a partner embeds on its own pages (docs/onboarding-widgets.md)',
    }),
  })
  .meta({ id: 'PartnerSettings' });
export type PartnerSettings = z.output<typeof partnerSettingsSchema>;
const code = z.string().trim().min(1).max(64);
export const updateSettingsBodySchema = z
  .object({
    name: singleLine(z.string().trim().min(1).max(200)).optional(),
    default_product: code.nullable().optional(),
    default_price_list: code.nullable().optional(),
    required_fields: z.array(z.enum(REQUIRED_FIELDS)).optional(),
    totp_required: z.boolean().optional(),
    onboarding_widgets: onboardingWidgetsSchema.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one setting');
