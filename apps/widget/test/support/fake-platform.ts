// A stand-in for the platform's public widget endpoints (libs/contracts' wire shapes) and a customer's
// site, on one real HTTP port on 127.0.0.1. The gateway's part is mimicked: loader.js with the
// bundle's name put in place of __WIDGET_BUNDLE__, assets from dist/apps/widget, Origin checks and
// CORS only for the property's hostname. Receipts, requests and views are recorded for assertions.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CONSENT_CATEGORIES, baseLanguage, isLanguage, type Language } from '@platform/contracts';
import { categoryTexts } from '@platform/contracts/widget-texts-all';
import { getDomain } from 'tldts';
import { embedsPage, sitePage } from './site-page';

export const DIST = path.resolve(__dirname, '../../../../dist/apps/widget');
export const SITE = 'shop.example.test';
export const PROPERTY_ID = 'prop_widget_test_1';

export type Json = Record<string, unknown>;
export interface Recorded {
  origin: string | undefined;
  body: Json;
}

export function defaultSettings(overrides: Json = {}): Json {
  const hostname = (overrides.hostname as string | undefined) ?? SITE;
  return {
    property_id: PROPERTY_ID,
    hostname: SITE,
    active: true,
    notice_type: 'CLASSIC',
    primary_color: '#1d4ed8',
    text_color: '#111827',
    widget_font: null,
    widget_position: 'bottom-right',
    border_radius: '6px',
    has_scripts: true,
    has_dsar: true,
    has_docs: true,
    has_accessibility: true,
    display_company: true,
    display_dpo: true,
    consent_revision: 'rev-1',
    categories: CONSENT_CATEGORIES,
    data_collection: [],
    company: {
      name: 'Example Shop Ltd',
      trade_name: 'Example Shop',
      email: 'privacy@shop.example.test',
      address: {
        country: 'DE',
        state: null,
        city: 'Berlin',
        address: 'Hauptstr. 1',
        address_2: null,
        postal_code: '10115',
      },
      phone_number: null,
    },
    dpo: null,
    // As domains-svc computes it (widget/cookie-domain.ts).
    cookie_domain: getDomain(hostname, { allowPrivateDomains: true }) || null,
    consent_max_age_days: 365,
    language: 'en',
    texts: {},
    regime: 'OPT_IN',
    consent_mode: { ads_data_redaction: true, url_passthrough: false },
    ...overrides,
  };
}

export class FakePlatform {
  settings: Json = defaultSettings();
  /** More properties by id (each its own settings, hostname and snippet); receipts are recorded together. */
  readonly others: Record<string, Json> = {};
  /** Anything but 200 simulates an outage of the settings endpoint. */
  settingsStatus = 200;
  /** Settings requests answered, whatever the status (a test may wait on it). */
  settingsServed = 0;
  /** While set, settings answers wait for it (to act before the widget has its settings). */
  settingsGate: Promise<void> | null = null;
  /** Anything but 201 simulates a receipts outage (nothing recorded). */
  receiptStatus = 201;
  /** Statuses for the next receipt posts, one each, before receiptStatus applies (e.g. 404: a property not known yet). */
  readonly receiptStatusesFirst: number[] = [];
  /** Receipt posts answered, whatever the status. */
  receiptPosts = 0;
  /** Settings answers: 200 with a body, or 304 to a revalidation with the current ETag. */
  readonly settingsAnswers: number[] = [];
  readonly receipts: Recorded[] = [];
  readonly requests: Recorded[] = [];
  readonly views: Recorded[] = [];
  /** The property's default_language and text_overrides, answered per `?lang=` as domains-svc does. */
  defaultLanguage: Language = 'en';
  textOverrides: Partial<Record<Language, Record<string, string>>> = {};
  /** The `lang` of each settings request ('' when none was sent). */
  readonly settingsLangs: string[] = [];
  /** Notice-view beacons (the notice was shown), by the Origin they came from. */
  readonly noticeViews: (string | undefined)[] = [];
  /** Embedded frames served (host:port and path), e.g. a held YouTube embed once it loads. */
  readonly frames: string[] = [];
  private server = http.createServer((req, res) => this.handle(req, res));
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get apiBase(): string {
    return 'http://127.0.0.1:' + this.port;
  }

  /** The customer's page, on the property's hostname (Chromium maps it to 127.0.0.1); `property` picks the snippet's. */
  pageUrl(name = 'index.html', host = SITE, property?: string): string {
    return 'http://' + host + ':' + this.port + '/site/' + name + (property ? '?property=' + property : '');
  }

  snippet(base = this.apiBase, property = PROPERTY_ID): string {
    return '<script src="' + base + '/widget/v1/' + property + '/loader.js"></script>';
  }

  private settingsOf(id: string): Json | undefined {
    return id === PROPERTY_ID ? this.settings : this.others[id];
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url || '/', 'http://x');
    const send = (status: number, body: string, type = 'application/json', headers: http.OutgoingHttpHeaders = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    if (url.pathname.startsWith('/site/')) return this.site(url, send);
    if (/^\/(maps\/)?embed\//.test(url.pathname)) {
      this.frames.push((req.headers['x-forwarded-host'] || req.headers.host) + url.pathname);
      return send(200, '<!doctype html><html lang="en"><title>Embed</title><p>Embedded player</p></html>', 'text/html');
    }
    const loader = /^\/widget\/v1\/([^/]+)\/loader\.js$/.exec(url.pathname);
    if (loader && this.settingsOf(loader[1])) return this.loader(send);
    const asset = /^\/widget\/v1\/assets\/([\w.-]+\.js)$/.exec(url.pathname);
    if (asset) return send(200, readFileSync(path.join(DIST, asset[1]), 'utf8'), 'text/javascript');
    const m = /^\/widget\/v1\/properties\/([^/]+)\/(settings|views|notice-views|receipts|requests)$/.exec(url.pathname);
    const settings = m && this.settingsOf(m[1]);
    if (!m || !settings) return send(404, JSON.stringify({ error: { code: 'NOT_FOUND', status: 404 } }));
    const cors = this.cors(req.headers.origin, settings.hostname as string);
    if (req.method === 'OPTIONS') {
      return send(cors ? 204 : 403, '', 'text/plain', {
        ...cors,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
      });
    }
    if (m[2] === 'settings') {
      void (this.settingsGate || Promise.resolve()).then(() => this.settingsAnswer(req, send, cors, m[1]));
      return;
    }
    if (!cors) return send(403, JSON.stringify({ error: { code: 'WIDGET.ORIGIN_NOT_ALLOWED', status: 403 } }));
    this.readBody(req).then((body) =>
      this.write(m[2], { origin: req.headers.origin, body }, (s, b) =>
        send(s, JSON.stringify({ result: b }), 'application/json', cors),
      ),
    );
  }

  private site(url: URL, send: (s: number, b: string, t?: string) => void) {
    if (url.pathname === '/site/marketing.js')
      return send(200, 'window.marketingRan = (window.marketingRan || 0) + 1;', 'text/javascript');
    if (url.pathname === '/site/embeds.html') return send(200, embedsPage(this.snippet(), this.port), 'text/html');
    const snippet = this.snippet(
      url.searchParams.get('api') || undefined,
      url.searchParams.get('property') || undefined,
    );
    const lang = (url.searchParams.get('lang') || 'en').replace(/[^\w-]/g, '');
    send(200, sitePage(snippet, lang, url.searchParams.get('dir') === 'rtl' ? 'rtl' : undefined), 'text/html');
  }

  private loader(send: (s: number, b: string, t?: string, h?: http.OutgoingHttpHeaders) => void) {
    const manifest = JSON.parse(readFileSync(path.join(DIST, 'manifest.json'), 'utf8')) as { widget: string };
    const code = readFileSync(path.join(DIST, 'loader.js'), 'utf8').replace('__WIDGET_BUNDLE__', manifest.widget);
    send(200, code, 'text/javascript', { 'cache-control': 'public, max-age=300' });
  }

  private cors(origin: string | undefined, hostname: string): http.OutgoingHttpHeaders | null {
    let host = '';
    try {
      host = new URL(origin || '').hostname;
    } catch {
      return null;
    }
    if (host !== hostname && !host.endsWith('.' + hostname)) return null;
    return { 'access-control-allow-origin': origin, vary: 'Origin' };
  }

  private settingsAnswer(
    req: http.IncomingMessage,
    send: (s: number, b: string, t?: string, h?: http.OutgoingHttpHeaders) => void,
    cors: http.OutgoingHttpHeaders | null,
    id: string,
  ) {
    this.settingsServed++;
    if (this.settingsStatus !== 200)
      return send(
        this.settingsStatus,
        JSON.stringify({ error: { code: 'UNAVAILABLE', status: this.settingsStatus } }),
        'application/json',
        cors || {},
      );
    const body = JSON.stringify({ result: this.inLanguage(this.settingsOf(id) as Json, req) });
    const etag = '"' + createHash('sha256').update(body).digest('base64url').slice(0, 22) + '"';
    const headers = { ...(cors || {}), etag, 'cache-control': 'private, no-cache' };
    const fresh = req.headers['if-none-match'] === etag;
    this.settingsAnswers.push(fresh ? 304 : 200);
    send(fresh ? 304 : 200, fresh ? '' : body, 'application/json', headers);
  }

  /** The settings in the language domains-svc would answer (the query's lang if spoken, else the default). */
  private inLanguage(settings: Json, req: http.IncomingMessage): Json {
    const asked = new URL(req.url || '/', 'http://x').searchParams.get('lang') || '';
    this.settingsLangs.push(asked);
    const language = baseLanguage(asked) ?? (isLanguage(this.defaultLanguage) ? this.defaultLanguage : 'en');
    const texts = categoryTexts(language);
    // English: the settings' own categories (a test may reword them); another language: the catalogue's.
    const categories =
      language === 'en'
        ? settings.categories
        : (settings.categories as Array<{ name: keyof typeof texts }>).map((c) => ({
            ...c,
            label: texts[c.name].label,
            description: texts[c.name].description,
          }));
    return { ...settings, categories, language, texts: this.textOverrides[language] ?? {} };
  }

  private write(kind: string, rec: Recorded, answer: (status: number, body: Json) => void) {
    if (kind === 'notice-views') {
      this.noticeViews.push(rec.origin);
      return answer(202, {});
    }
    if (kind === 'views') {
      this.views.push(rec);
      return answer(202, { accepted: true });
    }
    if (kind === 'requests') {
      this.requests.push(rec);
      const confirmBy = new Date(Date.now() + 86_400_000).toISOString();
      return answer(202, {
        request_id: 'DSR_' + randomBytes(8).toString('hex'),
        status: 'RECEIVED',
        confirm_by: confirmBy,
      });
    }
    this.receiptPosts++;
    const status = this.receiptStatusesFirst.shift() ?? this.receiptStatus;
    if (status !== 201) return answer(status, { unavailable: true });
    this.receipts.push(rec);
    const granted = Object.values((rec.body.categories as Record<string, boolean>) || {}).filter(Boolean).length;
    answer(201, {
      id: 'RCPT_' + randomBytes(16).toString('hex'),
      receipt_status: granted === 3 ? 'ALLOWED' : granted === 0 ? 'DENIED' : 'PARTIAL',
    });
  }

  private readBody(req: http.IncomingMessage): Promise<Json> {
    return new Promise((resolve) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        try {
          resolve(JSON.parse(raw || '{}') as Json);
        } catch {
          resolve({});
        }
      });
    });
  }
}
