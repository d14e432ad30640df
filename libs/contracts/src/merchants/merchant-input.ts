import { z } from 'zod';

/**
 * Characters that show nothing: whitespace, format characters (zero-width space and joiners, the
 * byte-order mark, direction marks), controls, and the blank fillers fonts draw as empty.
 */
const INVISIBLE = /[\s\p{Cf}\p{Cc}\p{Zs}\u034F\u115F\u1160\u2800\u3164\uFFA0]/gu;

/** True when the text has at least one character a person can see. */
export const hasVisibleText = (value: string) => value.replace(INVISIBLE, '').length > 0;

/**
 * The spec's bounds on a partner's `merchant_id`: up to 204 characters in a domain create body
 * (which makes the merchant it names), 1 to 32 on merchant create and update. So any merchant_id
 * may be up to 204 long (the filters and an update that keeps it take that), and a new one the
 * merchants API gives (create, or an update that changes it) at most 32.
 */
export const MERCHANT_ID_MAX = 204;
export const NEW_MERCHANT_ID_MAX = 32;

/**
 * The one rule for a partner's `merchant_id`, on the merchants API and on a domain create:
 * trimmed, and refused when nothing visible is left (spaces alone or zero-width characters alone).
 */
export const merchantIdText = (max = MERCHANT_ID_MAX) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .min(1, { message: 'must not be empty', abort: true })
    .refine(hasVisibleText, 'must contain a visible character');

/** Keys JavaScript gives a meaning to on every object: never meta keys (they would vanish or pollute). */
export const RESERVED_META_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];
export const isReservedMetaKey = (key: string) => RESERVED_META_KEYS.includes(key);
export const reservedMetaKeyMessage = `must not be one of ${RESERVED_META_KEYS.join(', ')}`;
