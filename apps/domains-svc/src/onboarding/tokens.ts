import { createHash, randomBytes } from 'node:crypto';

/** A link's or a status's token: 32 random bytes, URL-safe; only its hash is stored. */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest();
