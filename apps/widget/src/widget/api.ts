// The three public endpoints the bundle calls (PLAN17's wire shapes). Everything is best effort:
// an outage must never break the page.
import type { Choices } from '../shared/types';

export interface Party {
  name: string;
  usage?: string;
  url?: string;
}
export interface Purpose {
  name: string;
  category?: string;
  legal_base?: string;
  legal_description?: string;
}
export interface DataCollectionItem {
  name: string;
  description?: string;
  partners?: Party[];
  purposes?: Purpose[];
}
export interface Address {
  country?: string | null;
  state?: string | null;
  city?: string | null;
  address?: string | null;
  address_2?: string | null;
  postal_code?: string | null;
}
export interface Settings {
  property_id: string;
  hostname: string;
  active: boolean;
  notice_type: 'CLASSIC' | 'DISCRETE' | 'FOOTER' | 'TOP';
  primary_color: string | null;
  text_color: string | null;
  widget_font: string | null;
  widget_position: string | null;
  border_radius: string | null;
  has_scripts: boolean;
  has_dsar: boolean;
  has_docs: boolean;
  has_accessibility: boolean;
  display_company: boolean;
  display_dpo: boolean;
  consent_revision: string;
  categories: Array<{ name: string; required?: boolean; description?: string }>;
  data_collection: DataCollectionItem[];
  /** What the site's latest scan found; older settings may lack it. */
  cookies?: Cookie[];
  company: {
    name: string | null;
    trade_name: string | null;
    email: string | null;
    address: Address | null;
    phone_number: string | null;
  } | null;
  dpo: { name: string | null; email: string | null } | null;
}

export interface Cookie {
  name: string;
  domain: string;
  category: string;
  vendor: string | null;
  expires_at: string | null;
}

export interface ReceiptBody {
  receipt_type: 'COOKIE_CONSENT';
  subject: string;
  consent_revision: string;
  categories: Choices;
  gpc: boolean;
  widget_version: string;
  nonce: string;
}

export interface DsarBody {
  type: 'access' | 'deletion' | 'correction' | 'opt_out';
  email: string;
  name?: string;
  message?: string;
  subject?: string;
}

export class Api {
  constructor(
    private readonly base: string,
    private readonly id: string,
  ) {}

  private url(path: string) {
    return this.base + '/widget/v1/properties/' + encodeURIComponent(this.id) + '/' + path;
  }

  /** One request; the browser's HTTP cache revalidates it with the server's ETag. */
  async settings(): Promise<Settings> {
    const res = await fetch(this.url('settings'), { credentials: 'omit' });
    if (!res.ok) throw new Error('settings ' + res.status);
    return ((await res.json()) as { result: Settings }).result;
  }

  view(): Promise<unknown> {
    return this.post('views', { url: location.href.slice(0, 2000) });
  }

  receipt(body: ReceiptBody): Promise<unknown> {
    return this.post('receipts', body);
  }

  request(body: DsarBody): Promise<{ request_id: string; status: string }> {
    return this.post('requests', body) as Promise<{ request_id: string; status: string }>;
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
