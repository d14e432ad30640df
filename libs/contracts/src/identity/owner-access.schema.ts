import { z } from 'zod';
import { accessRoleSchema } from '../permissions';
import { paginationQuerySchema, singleLine } from '../common';
import { customerQueryFields } from '../consent/consent-record.schema';
import { exactlyOneCustomer } from '../domains/instance.schema';
import { emailSchema } from './identity.schema';

/** The owner console's cookie: its own name, so a partner user and a customer may be signed in side by side in one browser. */
export const OWNER_SESSION_COOKIE = 'pp_owner_session';

const accessUserName = singleLine(z.string().trim().min(1).max(200));

/** A person with access to the customer's account console. */
export const accessUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: accessRoleSchema,
    access: z.boolean().meta({ description: 'false: the user cannot sign in, and their sessions ended' }),
    company_id: z.string().meta({ description: "The customer's company (instance_company_id)" }),
    last_sign_in_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AccessUser' });
export type AccessUser = z.output<typeof accessUserSchema>;

/** The customer whose users these are: exactly one of merchant_id or domain_id, as every instance endpoint. */
export const accessCustomerQuerySchema = z.object(customerQueryFields).superRefine(exactlyOneCustomer);
export const listAccessUsersQuerySchema = paginationQuerySchema
  .extend(customerQueryFields)
  .superRefine(exactlyOneCustomer);
export const accessUserIdParamsSchema = z.object({
  userId: z.string().min(1).max(100).meta({ description: 'Access user id' }),
});

export const inviteAccessUserBodySchema = z.object({
  email: emailSchema,
  role: accessRoleSchema,
  name: accessUserName.optional(),
});
export const updateAccessUserBodySchema = z
  .object({ role: accessRoleSchema.optional(), access: z.boolean().optional() })
  .refine((b) => b.role !== undefined || b.access !== undefined, 'send at least one of role, access');
export const provisionAccessUserBodySchema = z.object({
  email: emailSchema,
  role: accessRoleSchema.optional().meta({ description: 'A new user gets VIEWER when none is given' }),
  name: accessUserName.optional(),
});

export const provisionedAccessUserSchema = z
  .object({
    user: accessUserSchema,
    sign_in_url: z.string().meta({ description: 'A single-use sign-in link to the owner console' }),
    expires_at: z.string().meta({ description: 'When the link stops working (15 minutes)' }),
  })
  .meta({ id: 'ProvisionedAccessUser' });

// --- the owner console's session

/** Asking for a link to the owner console: the address, and the domain whose console it is for. */
export const ownerSignInLinkBodySchema = z.object({
  email: emailSchema,
  domain_id: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .meta({ description: 'The domain (its id), as in the console address ?domain=' }),
});

export const ownerSessionSchema = z
  .object({
    audience: z.literal('OWNER'),
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), role: accessRoleSchema }),
    partner: z.object({ name: z.string() }),
    company_id: z.string(),
    domains: z.array(
      z.object({
        id: z.string(),
        hostname: z.string(),
        privacy_widget: z
          .string()
          .meta({ description: "The domain's widget snippet (as the domain's own privacy_widget)" }),
      }),
    ),
    csrf_token: z.string().meta({ description: 'Send it as X-CSRF-Token on every write made with the session cookie' }),
  })
  .meta({ id: 'OwnerSession' });
export type OwnerSession = z.output<typeof ownerSessionSchema>;
