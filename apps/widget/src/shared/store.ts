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

export function save(id: string, name: string, value: unknown): void {
  try {
    localStorage.setItem(key(id, name), JSON.stringify(value));
  } catch {
    // storage unavailable: the choice holds for this page only
  }
}
