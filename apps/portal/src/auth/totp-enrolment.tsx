import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { call } from '../api/client';
import { errorMessage } from '../api/errors';
import { sessionRoutes } from '../api/pending.routes';
import { totpCodeSchema } from '../api/pending.schema';
import { apiFieldErrors, validate, type FieldErrors } from '../forms';
import { Button } from '../ui/button';
import { CopyButton } from '../ui/copy-button';
import { DataState } from '../ui/data-state';
import { FormMessage } from '../ui/field';
import { CodeInput } from './code-input';

function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    // qrcode loads only here, not with the portal's first screen.
    void import('qrcode').then((qr) => qr.toDataURL(uri, { margin: 1, width: 192 })).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? (
    <img className="qr" src={src} width={192} height={192} alt="QR code to scan with your authenticator app" />
  ) : null;
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="recovery">
      <FormMessage tone="success">Two-factor authentication is on.</FormMessage>
      <p>
        Save these recovery codes somewhere safe. Each works once, if you lose your authenticator. They are shown only
        now.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <CopyButton text={codes.join('\n')} label="Copy codes" />
      <Button variant="primary" onClick={onDone}>
        I saved them, continue
      </Button>
    </div>
  );
}

/** Turning TOTP on: start (secret and QR), confirm with a first code, then the recovery codes once. */
export function TotpEnrolment({ onDone }: { onDone: () => void }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const start = useMutation({ mutationFn: () => call(sessionRoutes.startTotpEnrolment) });
  const confirm = useMutation({
    mutationFn: (code: string) => call(sessionRoutes.confirmTotpEnrolment, { body: { code } }),
    onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
  });
  const { mutate } = start;
  useEffect(() => mutate(), [mutate]);
  if (confirm.isSuccess) return <RecoveryCodes codes={confirm.data.result.recovery_codes} onDone={onDone} />;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(totpCodeSchema, String(new FormData(event.currentTarget).get('code') ?? '').trim());
    if (!checked.ok) return setErrors({ code: Object.values(checked.errors)[0] });
    setErrors({});
    confirm.mutate(checked.data);
  };
  return (
    <DataState
      loading={start.isPending || start.isIdle}
      error={start.isError ? errorMessage(start.error) : undefined}
      onRetry={() => start.mutate()}
    >
      {start.data && (
        <div className="enrol">
          <p>Scan this QR code with an authenticator app (1Password, Google Authenticator, Authy…).</p>
          <QrCode uri={start.data.result.otpauth_uri} />
          <p className="secret-line">
            Or enter this key: <code>{start.data.result.secret}</code>{' '}
            <CopyButton text={start.data.result.secret} label="Copy key" />
          </p>
          <p>Then enter the code the app shows.</p>
          <form onSubmit={submit} noValidate>
            <CodeInput error={errors.code} />
            {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
            <Button type="submit" variant="primary" busy={confirm.isPending} busyLabel="Checking…">
              Turn on two-factor authentication
            </Button>
          </form>
        </div>
      )}
    </DataState>
  );
}
