import { AppError, reply } from '@platform/http';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
import type { KeyRecord } from '../domain/key-authenticator';
import type { SignedInOwner } from '../identity/signed-in-owner';
import type { SignedInUser } from '../identity/signed-in-user';

/**
 * Who calls a gateway-owned route: the client, and the partner session's user, the API key (on
 * the routes open to keys) or the owner console's session when there is one.
 */
export interface GatewayCaller {
  ip: string;
  user?: SignedInUser;
  key?: KeyRecord;
  owner?: SignedInOwner;
}

export const sessionRequired = () => new AppError('AUTH.SESSION_REQUIRED');

/** A session cookie's Set-Cookie value (the partner portal's or the owner console's). */
export const cookieOf = (name: string, secure: boolean) => (value: string, maxAge: number) =>
  `${name}=${value}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;

/** The session's user once sign-in is complete (stage ACTIVE). */
export function activeUser(caller: GatewayCaller): SignedInUser {
  if (!caller.user) throw sessionRequired();
  if (caller.user.stage !== 'ACTIVE')
    throw new AppError('AUTH.SESSION_REQUIRED', 'Complete two-factor sign-in first (see the session stage).');
  return caller.user;
}

/**
 * The answer to a sign-in link redeemed for a session (a partner user's or an owner's): 201 with the
 * session's cookie; a link that names no session counts as a failed authentication of the address.
 */
export async function sessionCreated<T>(
  created: { cookieToken: string } | undefined,
  ip: string,
  deps: { authFailures: FailedAuthThrottle; cookie: (value: string, maxAge: number) => string; maxAgeSeconds: number },
  view: () => T | Promise<T>,
) {
  if (!created) {
    const retryAfter = await deps.authFailures.failed(ip);
    if (retryAfter !== undefined)
      throw new AppError('RATE.LIMITED', undefined, undefined, { 'Retry-After': retryAfter });
    throw new AppError('AUTH.SIGN_IN_LINK');
  }
  return reply(
    201,
    { result: await view() },
    { 'Set-Cookie': deps.cookie(created.cookieToken, deps.maxAgeSeconds), 'Cache-Control': 'no-store' },
  );
}
