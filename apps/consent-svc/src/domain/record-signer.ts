import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import type { UnsignedConsentRecord } from '@platform/contracts';

const privateJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().min(1),
  d: z.string().min(1),
  kid: z.string().min(1).max(128),
});
/** RECORD_SIGNING_KEYS: a JWKS of Ed25519 private keys; the first signs, every one is published. */
export const signingKeysSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JWKS (JSON)' });
      return z.NEVER;
    }
  })
  .pipe(z.object({ keys: z.array(privateJwkSchema).min(1, 'must hold at least one key') }))
  .refine((jwks) => new Set(jwks.keys.map((k) => k.kid)).size === jwks.keys.length, 'key ids (kid) must differ');
export type SigningKeys = z.output<typeof signingKeysSchema>;

export interface PublicSigningKey {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/**
 * Signs consent records: a compact JWS with a detached payload (RFC 7515 appendix F),
 * `<protected>..<signature>`, EdDSA, over the RFC 8785 canonical JSON of the record without
 * its signature. The private halves never leave this object (nor reach a log).
 *
 * Signed with node:crypto rather than jose's CompactSign: the same bytes (a JWS signing input is
 * `base64url(header).base64url(payload)`), a third of the CPU per record (jose signs through
 * WebCrypto). Verification (tests, README) uses jose.
 */
export class RecordSigner {
  readonly publicKeys: PublicSigningKey[];
  private readonly current: { header: string; key: KeyObject };

  constructor(keys: SigningKeys) {
    this.publicKeys = keys.keys.map((k) => ({
      kty: 'OKP',
      crv: 'Ed25519',
      x: k.x,
      kid: k.kid,
      alg: 'EdDSA',
      use: 'sig',
    }));
    const { kty, crv, x, d, kid } = keys.keys[0];
    this.current = {
      header: Buffer.from(JSON.stringify({ alg: 'EdDSA', kid })).toString('base64url'),
      key: createPrivateKey({ key: { kty, crv, x, d }, format: 'jwk' }),
    };
  }

  sign(record: UnsignedConsentRecord): string {
    const payload = Buffer.from(canonicalize(record) ?? '').toString('base64url');
    const signature = sign(null, Buffer.from(`${this.current.header}.${payload}`), this.current.key);
    return `${this.current.header}..${signature.toString('base64url')}`;
  }
}
