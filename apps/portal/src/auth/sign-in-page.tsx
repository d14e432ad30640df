import { authRoutes, routeOf, type Session } from '@platform/contracts';
import { useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { call } from '../api/client';
import { routes } from '../routes';
import { FormMessage } from '../ui/field';
import { useSession, useSetSession } from './session';
import { SignInLinkForm, useLinkToken } from './sign-in-link';

/** Where a fresh session goes next: its second factor, or the dashboard. */
export const nextPathOf = (session: Session) =>
  session.stage === 'TOTP_REQUIRED'
    ? routes.twoFactor()
    : session.stage === 'TOTP_ENROLMENT_REQUIRED'
      ? routes.enrolTwoFactor()
      : routes.dashboard();

function useMagicLink() {
  const setSession = useSetSession();
  const navigate = useNavigate();
  return useLinkToken(
    (token) => call(routeOf(authRoutes, 'createSession'), { body: { token } }),
    ({ result }) => {
      setSession(result);
      navigate(nextPathOf(result), { replace: true });
    },
  );
}

const sendLink = (email: string) => call(routeOf(authRoutes, 'createSignInLink'), { body: { email } });

/** Sign in by e-mail link: ask for the address, or exchange the link's #token for a session. */
export function SignInPage() {
  const session = useSession();
  const { token, exchange } = useMagicLink();
  const ended = sessionStorage.getItem('portal.session-ended') === '1';
  useEffect(() => sessionStorage.removeItem('portal.session-ended'), []);
  if (!token && session.data?.stage === 'ACTIVE') return <Navigate to={routes.dashboard()} replace />;
  const exchanging = !!token && !exchange.isError;
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <p className="auth-brand">Partner portal</p>
        <h1>Sign in</h1>
        <p className="muted">We e-mail you a link that signs you in. No password needed.</p>
        {ended && !token && <FormMessage tone="error">Your session has ended. Sign in again.</FormMessage>}
        {exchanging ? (
          <p role="status" className="signing-in">
            <span className="spinner" aria-hidden="true" /> Signing you in…
          </p>
        ) : (
          <>
            {exchange.isError && (
              <FormMessage tone="error">
                This sign-in link has expired or was already used. Ask for a new one below.
              </FormMessage>
            )}
            <SignInLinkForm
              send={sendLink}
              whoMay="belongs to a portal user"
              submitLabel="E-mail me a sign-in link"
              autoFocus
            />
          </>
        )}
      </div>
    </main>
  );
}
