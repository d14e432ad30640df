import { randomBytes } from 'node:crypto';
import type { AccessRole, ConsentRecord } from '@platform/contracts';
import { act, waitFor } from '@platform/testing';
import type { ApiResponse, Partner, System } from './system';

/** A signed-in owner console user: their cookie and CSRF token, and calls with both. */
export interface OwnerSession {
  userId: string;
  email: string;
  cookie: string;
  csrf: string;
  /** A request with the session's cookie, and its X-CSRF-Token on writes (unless csrf: false). */
  call(
    method: string,
    path: string,
    body?: unknown,
    options?: { csrf?: boolean; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
}

const tokenIn = (link: string) => /\/owner\/sign-in#token=([A-Za-z0-9_-]+)$/.exec(link)?.[1] ?? '';

/**
 * Signs a customer's user in to the owner console as the partner's customers are: the partner
 * provisions the user for the domain with its key, and the link's token is redeemed at
 * POST /portal/owner/sessions.
 */
export async function ownerSession(
  sys: System,
  partner: Partner,
  domainId: string,
  user: { email: string; role: AccessRole },
): Promise<OwnerSession> {
  const provisioned = await sys.arrange(
    partner,
    'POST',
    `/portal/instance/access/users/provision?domain_id=${domainId}`,
    user,
  );
  const token = tokenIn(provisioned.body.result.sign_in_url as string);
  const redeemed = await sys.call(undefined, 'POST', '/portal/owner/sessions', { token });
  if (redeemed.status !== 201) throw new Error(`owner sign-in answered ${redeemed.status}: ${redeemed.text}`);
  const cookie = (redeemed.headers.get('set-cookie') ?? '').split(';')[0];
  const csrf = redeemed.body.result.csrf_token as string;
  return {
    userId: provisioned.body.result.user.id as string,
    email: user.email,
    cookie,
    csrf,
    call: (method, path, body, options = {}) =>
      sys.call(undefined, method, path, body, {
        cookie,
        ...(method === 'GET' || options.csrf === false ? {} : { 'x-csrf-token': csrf }),
        ...options.headers,
      }),
  };
}

/**
 * A visitor's cookie consent on a page of the domain, through the gateway's public path (from a
 * Swedish address: the tests are a trusted proxy), once consent-svc has learned the property.
 */
export function sendReceipt(
  sys: System,
  domain: { hostname: string; propertyId: string },
  visitor: { subject: string; analytics: boolean },
): Promise<ConsentRecord> {
  const body = {
    receipt_type: 'COOKIE_CONSENT',
    subject: visitor.subject,
    consent_revision: 'r1',
    categories: { functional: true, analytics: visitor.analytics, marketing: false },
    widget_version: '1.0.0',
    nonce: randomBytes(24).toString('base64url'),
  };
  return waitFor(
    async () => {
      const res = await act(sys.gateway, 'POST', `/widget/v1/properties/${domain.propertyId}/receipts`, {
        body,
        headers: { origin: `https://${domain.hostname}`, 'x-forwarded-for': '89.160.20.112' },
      });
      return res.status === 201 ? (res.body.result as ConsentRecord) : undefined;
    },
    { what: 'consent-svc to know the property' },
  );
}
