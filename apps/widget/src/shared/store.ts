// First-party storage, keyed per property. Storage can throw (blocked cookies, sandboxed frames):
// then the choice lasts for this page only and nothing breaks.
import type { Choices } from './types';

/** A visitor's stored choice; `rev` is the settings' consent_revision it answered. */
export interface StoredChoice {
  rev: string;
  c: Choices;
  gpc?: boolean;
  at: number;
  /** false until the receipt was accepted by the API (resent on a later page). */
  sent?: boolean;
  nonce?: string;
}

const key = (id: string, name: string) => 'privacywidget:' + id + ':' + name;

export function load<T>(id: string, name: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key(id, name)) || 'null') as T | null;
  } catch {
    return null;
  }
}

/** `value` null removes the entry. */
export function save(id: string, name: string, value: unknown): void {
  try {
    if (value === null) localStorage.removeItem(key(id, name));
    else localStorage.setItem(key(id, name), JSON.stringify(value));
  } catch {
    // storage unavailable: the choice holds for this page only
  }
}

/**
 * The choice cookie, one per property: on the registrable domain it holds for the property's
 * hostname and its subdomains, and its name keeps two properties under one domain apart.
 * Value `<rev>.<flags>.<at>.<nonce>`: flags 1 functional, 2 analytics, 4 marketing, 8 GPC,
 * 16 receipt sent; at in base-36 milliseconds.
 */
export const cookieName = (id: string) => 'pw_' + id;

export function toCookie(s: StoredChoice): string {
  const on = [s.c.functional, s.c.analytics, s.c.marketing, s.gpc, s.sent !== false];
  return [s.rev, on.reduce((n, b, i) => n | (b ? 1 << i : 0), 0), s.at.toString(36), s.nonce || ''].join('.');
}

function fromCookie(id: string): StoredChoice | null {
  const pair = document.cookie.split('; ').filter((p) => p.indexOf(cookieName(id) + '=') === 0)[0];
  const v = pair ? pair.slice(cookieName(id).length + 1).split('.') : [];
  const bit = (i: number) => !!(+v[1] & (1 << i));
  return v.length === 4
    ? {
        rev: v[0],
        c: { functional: bit(0), analytics: bit(1), marketing: bit(2) },
        gpc: bit(3),
        at: parseInt(v[2], 36),
        sent: bit(4),
        nonce: v[3],
      }
    : null;
}

/** The cookie first (shared across the site), then this origin's storage (cookies off, or a choice from before). */
export const loadChoice = (id: string): StoredChoice | null => fromCookie(id) || load<StoredChoice>(id, 'choice');

/** Whether a choice made at `at` still stands after `days` days. */
export const fresh = (c: StoredChoice, days: number) => Date.now() - c.at < days * 864e5;
