import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { call } from '../api/client';
import { errorMessage } from '../api/errors';
import { sessionRoutes } from '../api/pending.routes';
import { sessionTotpBodySchema } from '../api/pending.schema';
import { apiFieldErrors, validate, type FieldErrors } from '../forms';
import { routes } from '../routes';
import { Button } from '../ui/button';
import { FormMessage, TextField } from '../ui/field';
import { CodeInput } from './code-input';
import { nextPathOf } from './sign-in-page';
import { useSession, useSetSession } from './session';

/** The second step of a sign-in: the authenticator's code, or one of the recovery codes. */
export default function TwoFactorPage() {
  const session = useSession();
  const setSession = useSetSession();
  const navigate = useNavigate();
  const [recovery, setRecovery] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const verify = useMutation({
    mutationFn: (body: { code: string } | { recovery_code: string }) => call(sessionRoutes.verifySessionTotp, { body }),
    onSuccess: ({ result }) => {
      setSession(result);
      navigate(nextPathOf(result), { replace: true });
    },
    onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
  });
  if (session.isSuccess && !session.data) return <Navigate to={routes.signIn()} replace />;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get(recovery ? 'recovery_code' : 'code') ?? '').trim();
    const checked = validate(sessionTotpBodySchema, recovery ? { recovery_code: value } : { code: value });
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    verify.mutate(checked.data);
  };
  return (
    <main className="auth-page" id="main">
      <div className="auth-card">
        <p className="auth-brand">Partner portal</p>
        <h1>Two-factor authentication</h1>
        <p>
          {recovery
            ? 'Enter one of the recovery codes you saved when you set up two-factor authentication.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </p>
        <form onSubmit={submit} noValidate key={recovery ? 'recovery' : 'code'}>
          {recovery ? (
            <TextField
              label="Recovery code"
              name="recovery_code"
              autoComplete="off"
              autoFocus
              error={errors.recovery_code}
            />
          ) : (
            <CodeInput autoFocus error={errors.code} />
          )}
          {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
          <Button type="submit" variant="primary" busy={verify.isPending} busyLabel="Checking…" className="btn-block">
            Continue
          </Button>
        </form>
        <Button variant="ghost" onClick={() => (setRecovery(!recovery), setErrors({}))}>
          {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
        </Button>
      </div>
    </main>
  );
}
