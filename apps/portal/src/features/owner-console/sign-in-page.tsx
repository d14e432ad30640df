import { useMutation } from '@tanstack/react-query';
import { ownerSessionRoutes, ownerSignInLinkBodySchema, routeOf } from '@platform/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { takeTokenFromHash } from '../../auth/sign-in-page';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { FormMessage, TextField } from '../../ui/field';
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

/**
 * "Send me a sign-in link" for the domain of the address (?domain=, as every owner e-mail's
 * approval_url has it). The answer is the same whether or not a link is sent (the API tells nothing).
 */
function OwnerEmailForm({ domainId }: { domainId: string }) {
  const [error, setError] = useState<string>();
  const send = useMutation({
    mutationFn: (email: string) =>
      call(routeOf(ownerSessionRoutes, 'createOwnerSignInLink'), { body: { email, domain_id: domainId } }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = ownerSignInLinkBodySchema.shape.email.safeParse(new FormData(event.currentTarget).get('email'));
    if (!email.success) return setError('Enter your e-mail address, like name@company.com');
    setError(undefined);
    send.mutate(email.data);
  };
  if (send.isSuccess) {
    return (
      <div role="status" className="check-mail">
        <h2>Check your e-mail</h2>
        <p>
          If <strong>{send.variables}</strong> may sign in to this account, a sign-in link is on its way. It works once,
          for 15 minutes.
        </p>
        <Button variant="ghost" onClick={() => send.reset()}>
          Use another address
        </Button>
      </div>
    );
  }
  const limited = send.error instanceof ApiError && send.error.code === 'RATE.LIMITED';
  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="E-mail address"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={error}
        hint="The address the e-mails about your website were sent to"
      />
      {limited && (
        <FormMessage tone="error">
          You have asked for several links in a short time. Please wait a few minutes, then try again.
        </FormMessage>
      )}
      {send.isError && !limited && <FormMessage tone="error">{errorMessage(send.error)}</FormMessage>}
      <Button type="submit" variant="primary" busy={send.isPending} busyLabel="Sending…" className="btn-block">
        Send me a sign-in link
      </Button>
    </form>
  );
}

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
