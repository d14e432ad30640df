import canonicalize from 'canonicalize';
import { CompactSign, importJWK, type JWK } from 'jose';
import { z } from 'zod';
import type { UnsignedConsentRecord } from '@platform/contracts';

const privateJwkSchema = z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string().min(1), d: z.string().min(1), kid: z.string().min(1).max(128) });
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
 */
export class RecordSigner {
  readonly publicKeys: PublicSigningKey[];
  private readonly current: { kid: string; key: ReturnType<typeof importJWK> };

  constructor(keys: SigningKeys) {
    this.publicKeys = keys.keys.map((k) => ({ kty: 'OKP', crv: 'Ed25519', x: k.x, kid: k.kid, alg: 'EdDSA', use: 'sig' }));
    const first = keys.keys[0];
    this.current = { kid: first.kid, key: importJWK({ ...first } as JWK, 'EdDSA') };
  }

  async sign(record: UnsignedConsentRecord): Promise<string> {
    const payload = new TextEncoder().encode(canonicalize(record));
    const jws = await new CompactSign(payload).setProtectedHeader({ alg: 'EdDSA', kid: this.current.kid }).sign(await this.current.key);
    const [header, , signature] = jws.split('.');
    return `${header}..${signature}`;
  }
}
