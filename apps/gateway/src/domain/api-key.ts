import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keys read `pdm_live_<12-char id>_<40-char secret>`: the prefix up to the id is not secret. */
const KEY_PREFIX = 'pdm_live_';
const ID_LENGTH = 12;
const SECRET_LENGTH = 40;
const KEY_PATTERN = new RegExp(`^(${KEY_PREFIX}[0-9A-Za-z]{${ID_LENGTH}})_[0-9A-Za-z]{32,64}$`);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 characters: bytes >= 248 are rejected so no character is favoured. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

const hashApiKey = (key: string): Buffer => createHash('sha256').update(key).digest();

export interface NewApiKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(): NewApiKey {
  const prefix = `${KEY_PREFIX}${randomBase62(ID_LENGTH)}`;
  const key = `${prefix}_${randomBase62(SECRET_LENGTH)}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The lookup prefix of a well-formed key, or undefined for anything else. */
export function prefixOf(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

/** Constant-time comparison of the presented key's digest with the stored one. */
export function keyMatches(key: string, storedHash: Buffer): boolean {
  const presented = hashApiKey(key);
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash);
}
