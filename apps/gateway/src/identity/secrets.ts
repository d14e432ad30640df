import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A high-entropy secret (sign-in token, session id, recovery code): 32 random bytes, base64url. */
export const newToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** SHA-256, all a high-entropy token needs at rest (no salt or stretching: it cannot be guessed). */
export const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * TOTP secrets at rest: AES-256-GCM under TOTP_ENCRYPTION_KEY (32 bytes, base64) as
 * v1.<iv>.<tag>.<ciphertext>; without a key they are stored as plain.<secret> (see
 * docs/configuration.md: set the key in production).
 */
export class TotpSecretBox {
  private readonly key?: Buffer;

  constructor(base64Key: string | undefined) {
    if (base64Key === undefined) return;
    const key = Buffer.from(base64Key, 'base64');
    if (key.length !== 32) throw new Error('TOTP_ENCRYPTION_KEY must be 32 bytes in base64 (openssl rand -base64 32)');
    this.key = key;
  }

  seal(secret: string): string {
    if (!this.key) return `plain.${secret}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version === 'plain') return sealed.slice('plain.'.length);
    if (version !== 'v1' || !this.key) throw new Error('TOTP secret sealed with a key that is not configured');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }
}
