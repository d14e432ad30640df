import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const KEY_BYTES = 32;

/** Whether a WEBHOOK_SECRET_KEY value is 32 bytes in base64. */
export const isSecretKey = (base64Key: string) => Buffer.from(base64Key, 'base64').length === KEY_BYTES;

/** A new signing secret: whsec_ + base64 of 32 random bytes (Standard Webhooks asks for 24 to 64). */
export const newSigningSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * Encrypts signing secrets at rest with AES-256-GCM under the configured key (WEBHOOK_SECRET_KEY,
 * 32 bytes in base64). Stored as v1.<iv>.<tag>.<ciphertext>, so the format can change later.
 */
export class SecretBox {
  private readonly key: Buffer;
  /** Opened secrets by their sealed form: a worker signs every attempt, and AES-GCM per attempt was ~3% of its CPU. */
  private readonly opened = new Map<string, string>();

  constructor(base64Key: string) {
    if (!isSecretKey(base64Key))
      throw new Error('WEBHOOK_SECRET_KEY must be 32 bytes in base64 (e.g. openssl rand -base64 32)');
    this.key = Buffer.from(base64Key, 'base64');
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(
      '.',
    );
  }

  open(sealed: string): string {
    const cached = this.opened.get(sealed);
    if (cached !== undefined) return cached;
    const secret = this.decrypt(sealed);
    if (this.opened.size >= 10_000) this.opened.clear();
    this.opened.set(sealed, secret);
    return secret;
  }

  private decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !ciphertext) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }
}

/**
 * The Standard Webhooks signature of one attempt: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * keyed with the secret's base64 part; one per secret, space-separated (during a rotation).
 * node:crypto rather than the standardwebhooks package's pure-JS HMAC: the same bytes (the tests
 * verify every delivery with that package), several times cheaper per delivery.
 */
export function signatureHeader(secrets: string[], webhookId: string, timestamp: number, body: string): string {
  const content = `${webhookId}.${timestamp}.${body}`;
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'))
          .update(content)
          .digest('base64')}`,
    )
    .join(' ');
}
