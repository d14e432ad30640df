import { createHash, randomBytes } from 'node:crypto';

/**
 * An e-mailed link's token (a registration's, a data subject request's) or a status token: 32
 * random bytes, URL-safe. Only its SHA-256 is stored, so a database reader cannot use a link.
 */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest();
