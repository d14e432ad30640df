// The onboarding widgets' calls to the gateway's public paths (no key; the page's Origin is checked
// there). Every wire shape is libs/contracts' (types only: erased from the bundle).
import type { ErrorObject, OnboardingConfig } from '@platform/contracts';

/** An answer as the widget reads it: the result, or the envelope's error (status 0: no answer at all). */
export type Answer<T> = { ok: true; result: T } | { ok: false; status: number; error?: ErrorObject };

export class OnboardingApi {
  private readonly base: string;

  constructor(origin: string, partnerId: string) {
    this.base = origin + '/widget/v1/onboarding/' + encodeURIComponent(partnerId) + '/';
  }

  config(widget: 'registration' | 'scan'): Promise<Answer<OnboardingConfig>> {
    return this.send<OnboardingConfig>('GET', widget);
  }

  async send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer<T>> {
    try {
      const res = await fetch(this.base + path, {
        method,
        credentials: 'omit',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json().catch(() => ({}))) as { result?: T; error?: ErrorObject };
      return res.ok ? { ok: true, result: json.result as T } : { ok: false, status: res.status, error: json.error };
    } catch {
      return { ok: false, status: 0 };
    }
  }
}
