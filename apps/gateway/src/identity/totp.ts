import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Partner Portal';

const totpOf = (secret: string, label = 'user') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** A new TOTP secret (base32, 160 bits) and its otpauth:// URI for authenticator apps. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, email).toString() };
}

/** Whether the code is the secret's at `now`, one 30 s step either side allowed (clock drift). */
export const totpCodeMatches = (secret: string, code: string, now: number) =>
  totpOf(secret).validate({ token: code, timestamp: now, window: 1 }) !== null;

/** The current code (tests and the CLI's checks). */
export const totpCodeAt = (secret: string, now: number) => totpOf(secret).generate({ timestamp: now });
