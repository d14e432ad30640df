import { ownerSessionRoutes, routeOf } from '@platform/contracts';
import { useEffect } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { SignInLinkForm, useLinkToken } from '../../auth/sign-in-link';
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
  return useLinkToken(
    (token) => call(routeOf(ownerSessionRoutes, 'createOwnerSession'), { body: { token } }),
    ({ result }) => {
      setSession(result);
      navigate(routes.owner.home(), { replace: true });
    },
  );
}

/**
 * "Send me a sign-in link" for the domain of the address (?domain=, as every owner e-mail's
 * approval_url has it). The answer is the same whether or not a link is sent (the API tells nothing).
 */
const OwnerEmailForm = ({ domainId }: { domainId: string }) => (
  <SignInLinkForm
    send={(email) =>
      call(routeOf(ownerSessionRoutes, 'createOwnerSignInLink'), { body: { email, domain_id: domainId } })
    }
    whoMay="may sign in to this account"
    submitLabel="Send me a sign-in link"
    hint="The address the e-mails about your website were sent to"
  />
);

/** The owner console's sign-in: the link's token redeemed, or (for a domain) a form that e-mails a link. */
export default function OwnerSignInPage() {
  const session = useOwnerSession();
  const { token, exchange } = useOwnerLink();
  const state = (useLocation().state ?? {}) as OwnerSignInState;
  const domainId = useSearchParams()[0].get('domain');
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
            {!token && domainId ? (
              <OwnerEmailForm domainId={domainId} />
            ) : (
              <p className="muted">
                You sign in with the link {partner ?? 'your provider'} sent you, by e-mail or from their site. Each link
                works once, for 15 minutes.
              </p>
            )}
            {live && <Link to={routes.owner.home()}>Go to your account console</Link>}
          </>
        )}
      </div>
    </main>
  );
}
