import { z } from 'zod';
import { deletedSchema, pageOf, resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute } from '../routes';
import { createSessionBodySchema, signInLinkSentSchema } from './identity.schema';
import {
  accessCustomerQuerySchema,
  accessUserIdParamsSchema,
  accessUserSchema,
  inviteAccessUserBodySchema,
  listAccessUsersQuerySchema,
  ownerSessionSchema,
  ownerSignInLinkBodySchema,
  provisionAccessUserBodySchema,
  provisionedAccessUserSchema,
  updateAccessUserBodySchema,
} from './owner-access.schema';

// Open to API keys and partner sessions alike (not userOnly): the gateway answers them itself.
const read = { service: 'gateway', permission: 'instance:read', tag: 'Instance' } as const;
const write = { service: 'gateway', permission: 'instance:write', tag: 'Instance' } as const;
const CUSTOMER =
  'Exactly one of `merchant_id` or `domain_id` names the customer (none or both: 400; a merchant of several ' +
  "domains: 409 MERCHANT.AMBIGUOUS). Another partner's domain or merchant, or a user of another customer: 404.";
const LAST_OWNER =
  "The customer's last OWNER with access cannot be demoted, turned off or removed (409 ACCESS_USER.LAST_OWNER).";
const lookup: ErrorCode[] = ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND', 'MERCHANT.AMBIGUOUS', 'SERVICE.UNAVAILABLE'];

/** The customer's own account: who may use its console (paginated), invited or provisioned just in time. */
export const accessUserRoutes = [
  defineRoute({
    ...read,
    operationId: 'listAccessUsers',
    method: 'get',
    path: '/portal/instance/access/users',
    summary: "List the customer's access users",
    description: `${CUSTOMER} Oldest first.`,
    query: listAccessUsersQuerySchema,
    response: pageOf(accessUserSchema),
    errors: lookup,
  }),
  defineRoute({
    ...write,
    operationId: 'inviteAccessUser',
    method: 'post',
    path: '/portal/instance/access/users',
    summary: "Invite a user to the customer's console (e-mails a sign-in link)",
    description: `${CUSTOMER} 409 ACCESS_USER.ALREADY_EXISTS when the address already is one of the customer's users.`,
    query: accessCustomerQuerySchema,
    body: inviteAccessUserBodySchema,
    response: resultOf(accessUserSchema),
    status: 201,
    errors: [...BODY_ERRORS, ...lookup, 'ACCESS_USER.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...write,
    operationId: 'provisionAccessUser',
    method: 'post',
    path: '/portal/instance/access/users/provision',
    summary: 'Provision a user just in time: a single-use sign-in link',
    description:
      `${CUSTOMER} Creates the user (role VIEWER unless given) or updates the one with that address (role, name; ` +
      `access back on), and answers a new single-use sign-in link (15 minutes). Nothing is e-mailed. ${LAST_OWNER}`,
    query: accessCustomerQuerySchema,
    body: provisionAccessUserBodySchema,
    response: resultOf(provisionedAccessUserSchema),
    errors: [...BODY_ERRORS, ...lookup, 'ACCESS_USER.LAST_OWNER'],
  }),
  defineRoute({
    ...read,
    operationId: 'getAccessUser',
    method: 'get',
    path: '/portal/instance/access/users/{userId}',
    summary: 'Get an access user',
    description: CUSTOMER,
    params: accessUserIdParamsSchema,
    query: accessCustomerQuerySchema,
    response: resultOf(accessUserSchema),
    errors: lookup,
  }),
  defineRoute({
    ...write,
    operationId: 'updateAccessUser',
    method: 'patch',
    path: '/portal/instance/access/users/{userId}',
    summary: "Change an access user's role, or turn their access off or on",
    description: `${CUSTOMER} access false ends the user's sessions at once. ${LAST_OWNER}`,
    params: accessUserIdParamsSchema,
    query: accessCustomerQuerySchema,
    body: updateAccessUserBodySchema,
    response: resultOf(accessUserSchema),
    errors: [...BODY_ERRORS, ...lookup, 'ACCESS_USER.LAST_OWNER'],
  }),
  defineRoute({
    ...write,
    operationId: 'deleteAccessUser',
    method: 'delete',
    path: '/portal/instance/access/users/{userId}',
    summary: 'Remove an access user (their sessions end at once)',
    description: `${CUSTOMER} Answers \`{result: {deleted: true}}\`. ${LAST_OWNER}`,
    params: accessUserIdParamsSchema,
    query: accessCustomerQuerySchema,
    response: resultOf(deletedSchema),
    errors: [...lookup, 'ACCESS_USER.LAST_OWNER'],
  }),
];

const ownerSignIn = { service: 'gateway', access: 'sign-in', tag: 'Owner console sign-in' } as const;

/** The owner console's sign-in: a link's token redeemed for a session of audience OWNER (its own cookie). */
export const ownerSessionRoutes = [
  defineRoute({
    ...ownerSignIn,
    operationId: 'createOwnerSignInLink',
    idempotencyKey: false,
    method: 'post',
    path: '/portal/owner/sign-in-links',
    summary: "E-mail a sign-in link to a domain's owner console",
    description:
      'Answers 202 whether or not anything is sent (nothing is learnt from the answer). A link ' +
      "`<portal>/owner/sign-in#token=...` (once, 15 minutes) goes to an access user of the domain's customer " +
      "whose access is on, or to the domain's `account_email`, who becomes the customer's OWNER then if not " +
      'yet a user. Throttled per address and per client address as the partner links are (429).',
    body: ownerSignInLinkBodySchema,
    response: resultOf(signInLinkSentSchema),
    status: 202,
    errors: [...BODY_ERRORS, 'RATE.LIMITED'],
  }),
  defineRoute({
    ...ownerSignIn,
    operationId: 'createOwnerSession',
    idempotencyKey: false,
    method: 'post',
    path: '/portal/owner/sessions',
    summary: "Redeem an access user's sign-in link for an owner console session",
    description:
      'Sets the `pp_owner_session` cookie (HttpOnly, SameSite=Lax, Secure). The session reaches the owner ' +
      'console only: every partner route answers it as it answers no session.',
    body: createSessionBodySchema,
    response: resultOf(ownerSessionSchema),
    status: 201,
    errors: [...BODY_ERRORS, 'AUTH.SIGN_IN_LINK', 'RATE.LIMITED'],
  }),
  defineRoute({
    ...ownerSignIn,
    operationId: 'getOwnerSession',
    method: 'get',
    path: '/portal/owner/session',
    summary: 'Who is signed in to the owner console',
    response: resultOf(ownerSessionSchema),
    errors: ['AUTH.SESSION_REQUIRED', 'SERVICE.UNAVAILABLE'],
  }),
  defineRoute({
    ...ownerSignIn,
    operationId: 'deleteOwnerSession',
    idempotencyKey: false,
    method: 'delete',
    path: '/portal/owner/session',
    summary: 'Sign out of the owner console',
    response: z.undefined(),
    status: 204,
    errors: ['AUTH.SESSION_REQUIRED', 'AUTH.CSRF'],
  }),
];
