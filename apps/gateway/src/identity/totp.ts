import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Partner Portal';

const totpOf = (secret: string, label = 'user') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** A new TOTP secret (base32, 160 bits) and its otpauth:// URI for authenticator apps. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, email).toString() };
}

const PERIOD_MS = 30_000;

/** The 30 s step the code belongs to when it is the secret's at `now` (one step either side allowed: clock drift), else undefined. */
export function totpStepOf(secret: string, code: string, now: number): number | undefined {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / PERIOD_MS) + delta;
}

/** The current code (tests and the CLI's checks). */
export const totpCodeAt = (secret: string, now: number) => totpOf(secret).generate({ timestamp: now });

const RECOVERY_CODES = 10;

/** Ten recovery codes reading xxxxx-xxxxx (base32-ish, no look-alike characters), 50 bits each. */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODES }, () => {
    const chars = [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed (spaces, capitals) in the form it was hashed in. */
export const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase();
