import { useMutation } from '@tanstack/react-query';
import { authRoutes, routeOf, type Session } from '@platform/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { call } from '../api/client';
import { errorMessage } from '../api/errors';
import { routes } from '../routes';
import { Button } from '../ui/button';
import { FormMessage, TextField } from '../ui/field';
import { useSession, useSetSession } from './session';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where a fresh session goes next: its second factor, or the dashboard. */
export const nextPathOf = (session: Session) =>
  session.stage === 'TOTP_REQUIRED'
    ? routes.twoFactor()
    : session.stage === 'TOTP_ENROLMENT_REQUIRED'
      ? routes.enrolTwoFactor()
      : routes.dashboard();

/** Takes the token out of the address bar at once (it must not stay in history) and returns it. */
export function takeTokenFromHash(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) history.replaceState(history.state, '', window.location.pathname + window.location.search);
  return token;
}

function useMagicLink() {
  const setSession = useSetSession();
  const navigate = useNavigate();
  const [token, setToken] = useState(takeTokenFromHash);
  const exchange = useMutation({
    mutationFn: (value: string) => call(routeOf(authRoutes, 'createSession'), { body: { token: value } }),
    onSuccess: ({ result }) => {
      setSession(result);
      navigate(nextPathOf(result), { replace: true });
    },
  });
  // A link opened while the page is already here changes only the hash.
  useEffect(() => {
    const onHash = () => setToken((current) => takeTokenFromHash() ?? current);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const sent = useRef(new Set<string>());
  const { mutate } = exchange;
  useEffect(() => {
    // One POST per token, also under StrictMode's double effect: the token is single use.
    if (!token || sent.current.has(token)) return;
    sent.current.add(token);
    mutate(token);
  }, [token, mutate]);
  return { token, exchange };
}

function EmailForm() {
  const [error, setError] = useState<string>();
  const send = useMutation({
    mutationFn: (email: string) => call(routeOf(authRoutes, 'createSignInLink'), { body: { email } }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    if (!EMAIL.test(email)) return setError('Enter your e-mail address, like name@company.com');
    setError(undefined);
    send.mutate(email);
  };
  if (send.isSuccess) {
    return (
      <div role="status" className="check-mail">
        <h2>Check your e-mail</h2>
        <p>
          If <strong>{send.variables}</strong> belongs to a portal user, a sign-in link is on its way. It works once,
          for 15 minutes.
        </p>
        <Button variant="ghost" onClick={() => send.reset()}>
          Use another address
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="E-mail address"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={error}
        autoFocus
      />
      {send.isError && <FormMessage tone="error">{errorMessage(send.error)}</FormMessage>}
      <Button type="submit" variant="primary" busy={send.isPending} busyLabel="Sending…" className="btn-block">
        E-mail me a sign-in link
      </Button>
    </form>
  );
}

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
            <EmailForm />
          </>
        )}
      </div>
    </main>
  );
}
