import type { IncomingMessage } from 'node:http';
import { CSRF_HEADER, OWNER_SESSION_COOKIE, SESSION_COOKIE } from '@platform/contracts';
import { timingSafeEqual } from 'node:crypto';

const cookieOf = (name: string) => new RegExp(`(?:^|;\\s*)${name}=([A-Za-z0-9_-]{20,100})(?:;|$)`);
const COOKIE = cookieOf(SESSION_COOKIE);
const OWNER_COOKIE = cookieOf(OWNER_SESSION_COOKIE);

/** The session token in the request's pp_session cookie, if any. */
export function sessionTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  return header ? COOKIE.exec(header)?.[1] : undefined;
}

/** The owner console's session token (pp_owner_session), if any: it is read on /portal/owner/... only. */
export function ownerSessionTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  return header ? OWNER_COOKIE.exec(header)?.[1] : undefined;
}

/** /portal/owner/... : the owner console's sign-in and session, the only routes an owner session reaches. */
export const OWNER_PATH = '/portal/owner/';

/** /portal/auth/... and /portal/owner/... : the sign-in operations, answered without an API key. */
export const isSignInPath = (url: string) => url.startsWith('/portal/auth/') || url.startsWith(OWNER_PATH);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a cookie-authenticated request may go on: reads always, writes only with the session's X-CSRF-Token. */
export function csrfPasses(req: IncomingMessage, csrfToken: string): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return true;
  const sent = req.headers[CSRF_HEADER];
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}
