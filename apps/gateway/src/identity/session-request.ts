import type { IncomingMessage } from 'node:http';
import { CSRF_HEADER, SESSION_COOKIE } from '@platform/contracts';
import { timingSafeEqual } from 'node:crypto';

const COOKIE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([A-Za-z0-9_-]{20,100})(?:;|$)`);

/** The session token in the request's pp_session cookie, if any. */
export function sessionTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  return header ? COOKIE.exec(header)?.[1] : undefined;
}

/** /portal/auth/... : the sign-in operations, answered without an API key. */
export const isSignInPath = (url: string) => url.startsWith('/portal/auth/');

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
