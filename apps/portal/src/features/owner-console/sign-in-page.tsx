import { useMutation } from '@tanstack/react-query';
import { ownerSessionRoutes, routeOf } from '@platform/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { takeTokenFromHash } from '../../auth/sign-in-page';
import { routes } from '../../routes';
import { FormMessage } from '../../ui/field';
import { rememberedPartnerName, useOwnerSession, useSetOwnerSession } from './session';

/** Why the page shows without a link: the guard found no session, or the owner signed out. */
export interface OwnerSignInState {
  ended?: boolean;
  signedOut?: boolean;
}

/** Redeems the link's #token once (it is single use), then goes to the console's home. */
function useOwnerLink() {
  const setSession = useSetOwnerSession();
  const navigate = useNavigate();
  const [token] = useState(takeTokenFromHash);
  const exchange = useMutation({
    mutationFn: (value: string) => call(routeOf(ownerSessionRoutes, 'createOwnerSession'), { body: { token: value } }),
    onSuccess: ({ result }) => {
      setSession(result);
      navigate(routes.owner.home(), { replace: true });
    },
  });
  const sent = useRef(false);
  const { mutate } = exchange;
  useEffect(() => {
    // One POST, also under StrictMode's double effect.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);
  return { token, exchange };
}

/** The owner console's sign-in: there is no form, only the link the partner sent (e-mail, or their site). */
export default function OwnerSignInPage() {
  const session = useOwnerSession();
  const { token, exchange } = useOwnerLink();
  const state = (useLocation().state ?? {}) as OwnerSignInState;
  const setSession = useSetOwnerSession();
  useEffect(() => {
    if (state.signedOut) setSession(null);
  }, [state.signedOut, setSession]);
  const live = state.signedOut ? undefined : session.data;
  if (!token && live) return <Navigate to={routes.owner.home()} replace />;
  const partner = session.data?.partner.name ?? rememberedPartnerName();
  const usedLink = exchange.error instanceof ApiError && exchange.error.code === 'AUTH.SIGN_IN_LINK';
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <p className="auth-brand">{partner ?? 'Account console'}</p>
        <h1>Sign in to your account</h1>
        {token && !exchange.isError ? (
          <p role="status" className="signing-in">
            <span className="spinner" aria-hidden="true" /> Signing you in…
          </p>
        ) : (
          <>
            {usedLink && (
              <FormMessage tone="error">
                This sign-in link has expired or was already used. Ask {partner ?? 'the company that sent it'} for a new
                link.
              </FormMessage>
            )}
            {exchange.isError && !usedLink && <FormMessage tone="error">{errorMessage(exchange.error)}</FormMessage>}
            {!token && state.ended && (
              <FormMessage tone="error">Your session has ended. Open a new sign-in link to continue.</FormMessage>
            )}
            {!token && state.signedOut && <FormMessage tone="success">You are signed out.</FormMessage>}
            <p className="muted">
              You sign in with the link {partner ?? 'your provider'} sent you, by e-mail or from their site. Each link
              works once, for 15 minutes.
            </p>
            {live && <Link to={routes.owner.home()}>Go to your account console</Link>}
          </>
        )}
      </div>
    </main>
  );
}
