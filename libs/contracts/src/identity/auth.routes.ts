import { z } from 'zod';
import { resultOf } from '../common';
import { BODY_ERRORS, defineRoute } from '../routes';
import {
  createSessionBodySchema,
  recoveryCodesSchema,
  sessionSchema,
  sessionTotpBodySchema,
  signInLinkBodySchema,
  signInLinkSentSchema,
  totpConfirmBodySchema,
  totpEnrolmentSchema,
} from './identity.schema';

const signIn = { service: 'gateway', access: 'sign-in', tag: 'Portal sign-in' } as const;
// Asking for a link, redeeming it, completing and ending the session act on the session itself
// (an answer for this session alone, before it has a partner or with its cookie), so they take no
// Idempotency-Key; the TOTP enrolment changes the user's account and takes one like any write.

/** Portal sign-in: magic links, the session cookie, TOTP. No API key; see docs/api.md "Portal sessions". */
export const authRoutes = [
  defineRoute({
    ...signIn,
    operationId: 'createSignInLink',
    idempotencyKey: false,
    method: 'post',
    path: '/portal/auth/sign-in-links',
    summary: 'E-mail a sign-in link',
    description:
      'Answers 202 whether or not the address is a user (nothing is learnt from the answer). The link ' +
      '`<portal>/sign-in#token=...` works once, for 15 minutes. Throttled per address and per client address (429).',
    body: signInLinkBodySchema,
    response: resultOf(signInLinkSentSchema),
    status: 202,
    errors: [...BODY_ERRORS, 'RATE.LIMITED'],
  }),
  defineRoute({
    ...signIn,
    operationId: 'createSession',
    idempotencyKey: false,
    method: 'post',
    path: '/portal/auth/sessions',
    summary: "Redeem a sign-in link's token for a session",
    description:
      'Sets the `pp_session` cookie (HttpOnly, SameSite=Lax, Secure). With TOTP (or when the partner requires ' +
      'it) the session starts at stage TOTP_REQUIRED or TOTP_ENROLMENT_REQUIRED: only the TOTP operations work until done.',
    body: createSessionBodySchema,
    response: resultOf(sessionSchema),
    status: 201,
    errors: [...BODY_ERRORS, 'AUTH.SIGN_IN_LINK', 'RATE.LIMITED'],
  }),
  defineRoute({
    ...signIn,
    operationId: 'getSession',
    method: 'get',
    path: '/portal/auth/session',
    summary: 'The signed-in session',
    response: resultOf(sessionSchema),
    errors: ['AUTH.SESSION_REQUIRED'],
  }),
  defineRoute({
    ...signIn,
    operationId: 'deleteSession',
    idempotencyKey: false,
    method: 'delete',
    path: '/portal/auth/session',
    summary: 'Sign out (the session ends, the cookie is cleared)',
    response: z.undefined(),
    status: 204,
    errors: ['AUTH.SESSION_REQUIRED', 'AUTH.CSRF'],
  }),
  defineRoute({
    ...signIn,
    operationId: 'verifySessionTotp',
    idempotencyKey: false,
    method: 'post',
    path: '/portal/auth/session/totp',
    summary: 'Complete sign-in with a TOTP code or a recovery code',
    description: 'A recovery code works once.',
    body: sessionTotpBodySchema,
    response: resultOf(sessionSchema),
    errors: [...BODY_ERRORS, 'AUTH.SESSION_REQUIRED', 'AUTH.CSRF', 'AUTH.TOTP', 'TOTP.INVALID_STATE', 'RATE.LIMITED'],
  }),
  defineRoute({
    ...signIn,
    operationId: 'startTotpEnrolment',
    method: 'post',
    path: '/portal/auth/totp',
    summary: 'Start TOTP enrolment: a new secret and its otpauth:// URI (for a QR code)',
    response: resultOf(totpEnrolmentSchema),
    status: 201,
    errors: ['AUTH.SESSION_REQUIRED', 'AUTH.CSRF', 'TOTP.INVALID_STATE'],
  }),
  defineRoute({
    ...signIn,
    operationId: 'confirmTotpEnrolment',
    method: 'put',
    path: '/portal/auth/totp',
    summary: 'Confirm TOTP enrolment with a code; answers 10 recovery codes, shown once',
    body: totpConfirmBodySchema,
    response: resultOf(recoveryCodesSchema),
    errors: [...BODY_ERRORS, 'AUTH.SESSION_REQUIRED', 'AUTH.CSRF', 'AUTH.TOTP', 'TOTP.INVALID_STATE'],
  }),
  defineRoute({
    ...signIn,
    operationId: 'disableTotp',
    method: 'delete',
    path: '/portal/auth/totp',
    summary: 'Turn TOTP off (not while the partner requires it)',
    body: totpConfirmBodySchema,
    response: z.undefined(),
    status: 204,
    errors: [...BODY_ERRORS, 'AUTH.SESSION_REQUIRED', 'AUTH.CSRF', 'AUTH.TOTP', 'TOTP.INVALID_STATE'],
  }),
];
