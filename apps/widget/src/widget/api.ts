// The public endpoints the bundle calls. Everything is best effort:
// an outage must never break the page.
// Every wire shape is libs/contracts' (types only: erased from the bundle).
import type { DsarAnswer, DsarBody, ReceiptBody, WidgetSettings } from '@platform/contracts';

export class Api {
  constructor(
    private readonly base: string,
    private readonly id: string,
  ) {}

  private url(path: string) {
    return this.base + '/widget/v1/properties/' + encodeURIComponent(this.id) + '/' + path;
  }

  /** One request per language (in the URL: its own cache entry); the browser's HTTP cache revalidates it with the server's ETag. */
  async settings(lang?: string): Promise<WidgetSettings> {
    const res = await fetch(this.url('settings') + (lang ? '?lang=' + lang : ''), { credentials: 'omit' });
    if (!res.ok) throw new Error('settings ' + res.status);
    return ((await res.json()) as { result: WidgetSettings }).result;
  }

  view(): Promise<unknown> {
    return this.post('views', { url: location.href.slice(0, 2000) });
  }

  /** The notice was shown (counted for the consent figures): no body, so a simple request with no preflight. */
  noticeView(): void {
    fetch(this.url('notice-views'), { method: 'POST', credentials: 'omit', keepalive: true }).catch(() => undefined);
  }

  receipt(body: ReceiptBody): Promise<unknown> {
    return this.post('receipts', body);
  }

  request(body: DsarBody): Promise<DsarAnswer> {
    return this.post('requests', body) as Promise<DsarAnswer>;
  }

  private async post(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(this.url(path), {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw Object.assign(new Error(path + ' ' + res.status), { status: res.status });
    return ((await res.json()) as { result: unknown }).result;
  }
}
