import { z } from 'zod';

/** The error catalogue: every code the platform answers with, its HTTP status and default message. */
export const ERROR_CATALOGUE = {
  'VALIDATION.INVALID': { status: 400, message: 'The request data is invalid.' },
  'VALIDATION.MALFORMED_JSON': { status: 400, message: 'The request body is not valid JSON.' },
  'REQUEST.MALFORMED': { status: 400, message: 'The HTTP request is malformed.' },
  'AUTH.API_KEY': { status: 401, message: 'The API key is missing, invalid, revoked or expired.' },
  'AUTH.FORBIDDEN': { status: 403, message: 'The API key has no permission for this request.' },
  'AUTH.SESSION_REQUIRED': { status: 401, message: 'Sign in to the portal first: no valid session.' },
  'AUTH.SIGN_IN_LINK': {
    status: 401,
    message: 'The sign-in link is invalid, already used or expired; ask for a new one.',
  },
  'AUTH.TOTP': { status: 401, message: 'The authentication code or recovery code is not valid.' },
  'AUTH.CSRF': {
    status: 403,
    message: 'A write with the session cookie must send the header X-CSRF-Token with the session csrf_token.',
  },
  'RESOURCE.NOT_FOUND': { status: 404, message: 'The requested resource does not exist.' },
  'ROUTE.NOT_FOUND': { status: 404, message: 'No such endpoint.' },
  'ROUTE.METHOD_NOT_ALLOWED': { status: 405, message: 'The method is not allowed on this endpoint.' },
  'DOMAIN.ALREADY_EXISTS': { status: 409, message: 'The domain is already registered.' },
  'DOMAIN.INVALID_STATE': { status: 409, message: 'The domain is not in a state that allows this.' },
  'DOMAIN.SCAN_IN_PROGRESS': {
    status: 409,
    message: 'A scan of this domain is queued or running; read it with GET .../scan.',
  },
  'IMPORT.INVALID_FILE': {
    status: 400,
    message: 'The import file cannot be read: it must be a .csv or an .xlsx (no macros) with the template columns.',
  },
  'IMPORT.TOO_MANY_ROWS': { status: 413, message: 'The import file has more than 10,000 rows.' },
  'SUBDOMAIN.ALREADY_EXISTS': { status: 409, message: 'The subdomain already exists.' },
  'SUBDOMAIN.LIMIT_REACHED': { status: 409, message: 'The domain already has the maximum number of subdomains.' },
  'USER.ALREADY_EXISTS': { status: 409, message: 'This e-mail address is already a user of this partner.' },
  'USER.LAST_ADMINISTRATOR': {
    status: 409,
    message: 'The last active ADMINISTRATOR cannot be demoted, deactivated or removed.',
  },
  'ACCESS_USER.ALREADY_EXISTS': {
    status: 409,
    message: "This e-mail address already is one of the customer's access users.",
  },
  'ACCESS_USER.LAST_OWNER': {
    status: 409,
    message: "The account's last OWNER with access cannot be demoted, turned off or removed.",
  },
  'API_KEY.INVALID_STATE': { status: 409, message: 'The API key is revoked, expired or already rolled.' },
  'TOTP.INVALID_STATE': { status: 409, message: 'Two-factor authentication is not in a state that allows this.' },
  'MERCHANT.ALREADY_EXISTS': { status: 409, message: 'A merchant with this merchant_id already exists.' },
  'MERCHANT.AMBIGUOUS': {
    status: 409,
    message: 'The merchant names several domains; name one with domain_id (data.domain_ids lists them).',
  },
  'IDEMPOTENCY.KEY_REUSED': { status: 409, message: 'This Idempotency-Key was already used with another request.' },
  'IDEMPOTENCY.IN_PROGRESS': {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed; retry later.',
  },
  'WIDGET.ORIGIN_NOT_ALLOWED': {
    status: 403,
    message: "The request's Origin is not the property's hostname or one of its subdomains.",
  },
  'WIDGET.DISABLED': { status: 403, message: 'The partner has not turned this widget on.' },
  'REGISTRATION.LINK_INVALID': {
    status: 404,
    message: 'The confirmation link is invalid or has expired; register the website again.',
  },
  'DATA_REQUEST.LINK_INVALID': {
    status: 404,
    message: 'The confirmation link is invalid or has expired; send the request again.',
  },
  'DATA_REQUEST.INVALID_TRANSITION': {
    status: 409,
    message: "The request's status does not allow this change.",
  },
  'RECEIPT.REPLAYED': { status: 400, message: 'A receipt with this nonce was already recorded.' },
  'REQUEST.TOO_LARGE': { status: 413, message: 'The request body is too large.' },
  'REQUEST.UNSUPPORTED_MEDIA_TYPE': { status: 415, message: 'The request body must be application/json.' },
  'REQUEST.HEADERS_TOO_LARGE': { status: 431, message: 'The request headers are too large.' },
  'RATE.LIMITED': { status: 429, message: 'Too many requests; retry after the time in Retry-After.' },
  'SERVER.INTERNAL': { status: 500, message: 'An unexpected error occurred.' },
  'SERVICE.UNAVAILABLE': { status: 503, message: 'A service needed for this request is unavailable; retry later.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const errorObjectSchema = z
  .object({
    code: z.string().meta({ example: 'VALIDATION.INVALID' }),
    ns: z.string().meta({ description: 'The part of code before the first dot', example: 'VALIDATION' }),
    message: z.string(),
    status: z.number().int(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorObject = z.infer<typeof errorObjectSchema>;

export const errorResponseSchema = z.object({ error: errorObjectSchema }).meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export function errorObject(code: ErrorCode, message?: string, data?: Record<string, unknown>): ErrorObject {
  const entry = ERROR_CATALOGUE[code];
  return {
    code,
    ns: code.split('.')[0],
    message: message ?? entry.message,
    status: entry.status,
    ...(data === undefined ? {} : { data }),
  };
}
