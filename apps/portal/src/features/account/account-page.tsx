import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { sessionRoutes } from '../../api/pending.routes';
import { CodeInput } from '../../auth/code-input';
import { useSession } from '../../auth/session';
import { TotpEnrolment } from '../../auth/totp-enrolment';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/field';
import { PageHeader, Section } from '../../ui/misc';

function TurnOff({ onDone }: { onDone: () => void }) {
  const off = useMutation({
    mutationFn: (code: string) => call(sessionRoutes.disableTotp, { body: { code } }),
    onSuccess: onDone,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    off.mutate(String(new FormData(event.currentTarget).get('code') ?? '').trim());
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>To turn two-factor authentication off, enter a code from your authenticator app.</p>
      <CodeInput error={off.isError ? errorMessage(off.error) : undefined} />
      <Button type="submit" variant="danger" busy={off.isPending}>
        Turn off
      </Button>
    </form>
  );
}

/** The signed-in user's own profile and two-factor authentication. */
export default function AccountPage() {
  const session = useSession();
  const [enrolling, setEnrolling] = useState(false);
  const data = session.data;
  if (!data) return null;
  const done = () => {
    setEnrolling(false);
    void session.refetch();
  };
  return (
    <>
      <PageHeader title="Your profile" description={`${data.user.email} · ${data.partner.name}`} />
      <Section title="Two-factor authentication">
        {enrolling ? (
          <TotpEnrolment onDone={done} />
        ) : data.user.totp_enabled ? (
          <>
            <FormMessage tone="success">Two-factor authentication is on.</FormMessage>
            {!data.partner.totp_required && <TurnOff onDone={done} />}
          </>
        ) : (
          <>
            <p>Add a second step to your sign-in with an authenticator app.</p>
            <Button variant="primary" onClick={() => setEnrolling(true)}>
              Set up two-factor authentication
            </Button>
          </>
        )}
      </Section>
    </>
  );
}
