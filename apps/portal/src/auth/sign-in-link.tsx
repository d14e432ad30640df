// The two halves of a sign-in by e-mail link, shared by the partner portal and the owner console
// (one sign-in mechanism, two audiences): redeeming the link's #token once, and the form that asks
// for a link and answers the same whether or not one is sent.
import { useMutation } from '@tanstack/react-query';
import { signInLinkBodySchema } from '@platform/contracts';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { errorMessage } from '../api/errors';
import { Button } from '../ui/button';
import { FormMessage, TextField } from '../ui/field';

/** Takes the token out of the address bar at once (it must not stay in history) and returns it. */
export function takeTokenFromHash(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) history.replaceState(history.state, '', window.location.pathname + window.location.search);
  return token;
}

/** Redeems the address's #token once (it is single use), also one opened later while the page is here. */
export function useLinkToken<T>(redeem: (token: string) => Promise<T>, onRedeemed: (answer: T) => void) {
  const [token, setToken] = useState(takeTokenFromHash);
  const exchange = useMutation({ mutationFn: redeem, onSuccess: onRedeemed });
  // A link opened while the page is already here changes only the hash.
  useEffect(() => {
    const onHash = () => setToken((current) => takeTokenFromHash() ?? current);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const sent = useRef(new Set<string>());
  const { mutate } = exchange;
  useEffect(() => {
    // One POST per token, also under StrictMode's double effect.
    if (!token || sent.current.has(token)) return;
    sent.current.add(token);
    mutate(token);
  }, [token, mutate]);
  return { token, exchange };
}

/** "E-mail me a link": the address checked with the API's own schema; "check your e-mail" whatever the API did. */
export function SignInLinkForm(props: {
  send: (email: string) => Promise<unknown>;
  /** Ends "If <address> …, a sign-in link is on its way." */
  whoMay: string;
  submitLabel: string;
  hint?: ReactNode;
  autoFocus?: boolean;
}) {
  const [error, setError] = useState<string>();
  const send = useMutation({ mutationFn: props.send });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = signInLinkBodySchema.shape.email.safeParse(
      String(new FormData(event.currentTarget).get('email') ?? '').trim(),
    );
    if (!email.success) return setError('Enter your e-mail address, like name@company.com');
    setError(undefined);
    send.mutate(email.data);
  };
  if (send.isSuccess) {
    return (
      <div role="status" className="check-mail">
        <h2>Check your e-mail</h2>
        <p>
          If <strong>{send.variables}</strong> {props.whoMay}, a sign-in link is on its way. It works once, for 15
          minutes.
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
        hint={props.hint}
        autoFocus={props.autoFocus}
      />
      {limited && (
        <FormMessage tone="error">
          You have asked for several links in a short time. Please wait a few minutes, then try again.
        </FormMessage>
      )}
      {send.isError && !limited && <FormMessage tone="error">{errorMessage(send.error)}</FormMessage>}
      <Button type="submit" variant="primary" busy={send.isPending} busyLabel="Sending…" className="btn-block">
        {props.submitLabel}
      </Button>
    </form>
  );
}
