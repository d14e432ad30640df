// Seed data for the fake API, every object shaped by libs/contracts' types, with fixed dates so
// screenshots are stable.
import {
  DEFAULT_ONBOARDING_WIDGETS,
  DOMAIN_STATUSES,
  EMAIL_TEMPLATE_VARIABLES,
  exampleEventPayload,
  PUBLIC_EVENT_NAMES,
  SUBSCRIPTION_STATUSES,
  type ConsentRecord,
  type DomainDetail,
  type DomainStats,
  type DomainStatus,
  type EmailTemplate,
  type Merchant,
  type ReceiptStats,
  type SubscriptionStats,
  type User,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@platform/contracts';
import type { ApiKey, AuditEvent, PartnerSettings } from '../../src/api/types';

/** The fake's "now": every seeded date is before it, so weekly charts and "last used" read the same each run. */
export const NOW = new Date('2026-11-26T12:00:00Z');
const DAY = 24 * 3600 * 1000;
export const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

export const PARTNER = { id: 'ptn_fake_1', name: 'Acme Hosting' };

export function user(id: string, email: string, name: string, role: User['role'], extra: Partial<User> = {}): User {
  return {
    id,
    email,
    name,
    role,
    status: 'ACTIVE',
    totp_enabled: false,
    last_sign_in_at: daysAgo(1),
    created_at: daysAgo(90),
    ...extra,
  };
}

export function domain(
  i: number,
  status: DomainStatus,
  createdDaysAgo: number,
  hostname = `shop${i}.example.com`,
): DomainDetail {
  const created = daysAgo(createdDaysAgo);
  return {
    id: `dom_${String(i).padStart(4, '0')}`,
    hostname,
    status,
    instance_property_id: `prop_${i}`,
    instance_company_id: `comp_${i}`,
    updated_at: created,
    created_at: created,
    is_active: status !== 'INACTIVE',
    email: `owner${i}@example.com`,
    company_trade_name: `Shop ${i}`,
    company_id_number: '',
    has_scripts: true,
    has_dsar: true,
    has_docs: true,
    has_accessibility: true,
    display_company: true,
    display_dpo: true,
    default_notice_type: 'CLASSIC',
    source: i % 3 === 0 ? 'PORTAL' : 'API',
    partner_id: PARTNER.id,
    privacy_widget: `<script src="https://cdn.platform.example/widget/v1/prop_${i}/loader.js"></script>`,
    privacy_center_link: `https://privacy.platform.example/prop_${i}`,
    privacy_dnt_link: `https://privacy.platform.example/prop_${i}/dnt`,
    activated_at: status === 'ACTIVE' ? daysAgo(Math.max(0, createdDaysAgo - 3)) : null,
    has_vendor_logo: false,
    widget_version: 2,
    instance_id: 1,
    system_segment_id: 1,
    merchants: i % 4 === 0 ? [`merchant-${i}`] : [],
    instance: { id: 1, name: 'EU', hostname: 'eu.platform.example' },
    property: {
      id: `prop_${i}`,
      name: hostname,
      company: {
        id: `comp_${i}`,
        name: `Shop ${i} GmbH`,
        email: `owner${i}@example.com`,
        address: { country: 'DE', city: 'Berlin', address: 'Hauptstr. 1', postal_code: '10115', phone_number: '' },
        owner: { id: `own_${i}`, email: `owner${i}@example.com`, first_name: 'Olga', last_name: 'Owner' },
      },
    },
    subscription:
      status === 'ACTIVE'
        ? {
            id: `sub_${i}`,
            status: 'ACTIVE',
            start_date: created,
            end_date: null,
            created_at: created,
            price: {
              id: 1,
              frequency: 'MONTH',
              currency: { id: 'EUR', name: 'EUR' },
              price_amount: 9.9,
              price_list: { id: 1, type: 'STANDARD', code: 'STANDARD' },
              product: { id: 1, type: 'WIDGET', name: 'Basic' },
            },
          }
        : null,
  };
}

/** 36 domains over twelve weeks, every status present. */
export const seedDomains = (): DomainDetail[] =>
  Array.from({ length: 36 }, (_, i) => domain(i + 1, DOMAIN_STATUSES[i % DOMAIN_STATUSES.length], i * 2 + 1));

export function merchant(i: number, linked?: DomainDetail): Merchant {
  return {
    id: `mer_${i}`,
    merchant_id: `merchant-${i}`,
    company_name: `Merchant ${i} Ltd`,
    description: null,
    meta: {},
    default_product: null,
    default_price_list: null,
    created_at: daysAgo(30 + i),
    updated_at: daysAgo(30 + i),
    partner_id: PARTNER.id,
    registered_at: linked ? linked.created_at : null,
    domain: linked
      ? {
          id: linked.id,
          hostname: linked.hostname,
          status: linked.status,
          is_active: linked.is_active,
          created_at: linked.created_at,
          email: linked.email,
          source: linked.source,
        }
      : null,
  };
}

export function apiKey(id: string, name: string | null, extra: Partial<ApiKey> = {}): ApiKey {
  return {
    id,
    // As the gateway's: pdm_live_ and a 12-character id.
    prefix: `pdm_live_x7Qm2LpR${id.slice(-4)}`,
    name,
    permissions: ['domains:read', 'domains:write'],
    allowed_ip: null,
    expires_at: null,
    created_by: { type: 'USER', id: 'usr_admin', email: 'ada@acme.example' },
    last_used_at: daysAgo(2),
    created_at: daysAgo(40),
    rolled_to: null,
    revoked_at: null,
    ...extra,
  };
}

export function endpoint(id: string, url: string, extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id,
    url,
    description: '',
    events: null,
    enabled: true,
    disabled_reason: null,
    previous_secret_expires_at: null,
    created_at: daysAgo(20),
    updated_at: daysAgo(20),
    ...extra,
  };
}

export function delivery(
  id: string,
  endpointId: string,
  status: WebhookDelivery['status'],
  event = 'domain.created',
): WebhookDelivery {
  const failed = status === 'failed';
  return {
    id,
    endpoint_id: endpointId,
    event,
    status,
    attempt_count: failed ? 2 : 1,
    next_attempt_at: status === 'pending' ? daysAgo(-1) : null,
    created_at: daysAgo(1),
    updated_at: daysAgo(1),
    payload: exampleEventPayload(event as (typeof PUBLIC_EVENT_NAMES)[number]) as unknown as Record<string, unknown>,
    attempts: [
      {
        attempted_at: daysAgo(1),
        duration_ms: failed ? 5000 : 83,
        status_code: failed ? 500 : 200,
        error: null,
        error_message: null,
        response_body: failed ? '{"error":"upstream down"}' : 'ok',
        response_truncated: false,
      },
    ],
  };
}

export function template(kind: EmailTemplate['kind']): EmailTemplate {
  const subjects: Record<EmailTemplate['kind'], string> = {
    INVITATION: 'Activate privacy on {{ domain_name }}',
    INTRO: 'Meet your privacy widget, {{ owner_first_name }}',
    SCAN_REPORT: 'What we found on {{ domain_name }}',
    ACTIVATION_REMINDER: 'One step left for {{ domain_name }}',
  };
  return {
    kind,
    subject: subjects[kind],
    body: [
      '<p>Hello {{ owner_first_name }},</p>',
      '<p>your site <b>{{ domain_name }}</b> is ready. Add this snippet:</p>',
      '<pre>{{ widget_snippet }}</pre>',
      '<p>Approve: <a href="{{ approval_url }}">{{ approval_url }}</a></p>',
    ].join('\n'),
    customized: kind === 'INVITATION',
    variables: [...EMAIL_TEMPLATE_VARIABLES[kind]],
    updated_at: kind === 'INVITATION' ? daysAgo(5) : null,
  };
}

export function auditEvent(i: number, kind: AuditEvent['kind']): AuditEvent {
  return {
    id: `aud_${i}`,
    kind,
    actor: { type: 'USER', id: 'usr_admin', label: 'ada@acme.example' },
    target: { type: 'api_key', id: `key_${i}` },
    details: {},
    created_at: daysAgo(i),
  };
}

export const defaultSettings = (): PartnerSettings => ({
  id: PARTNER.id,
  name: PARTNER.name,
  default_product: 'BASIC',
  default_price_list: null,
  required_fields: [],
  totp_required: false,
  onboarding_widgets: structuredClone(DEFAULT_ONBOARDING_WIDGETS),
});

/** A consent record as consent-svc lists it; only what the portal shows is meaningful here. */
export function consentRecord(
  d: DomainDetail,
  i: number,
  receipt_status: ConsentRecord['receipt_status'],
): ConsentRecord {
  return {
    receipt_id: `RCPT_${d.id}_${i}`,
    receipt_type: 'COOKIE_CONSENT',
    receipt_status,
    country: ['DE', 'FR', 'NL'][i % 3],
    region: null,
    jurisdiction: 'GDPR',
    subject: `visitor-${i}`,
    subject_auth: 'ANONYMOUS',
    subject_data: {},
    property_id: d.property.id,
    created_at: daysAgo(i + 1),
    signature: 'eyJhbGciOiJFZERTQSJ9..c2ln',
  } as unknown as ConsentRecord;
}

const DAY_MS = 24 * 3600 * 1000;
/** Monday 00:00 UTC of the week `ms` falls in. */
const mondayOf = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
};
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** GET /portal/stats/domains as domains-svc counts it: by status now, and first created / invited / activated per week. */
export function domainStats(domains: DomainDetail[], weeks: number): DomainStats {
  const by_status = Object.fromEntries(DOMAIN_STATUSES.map((s) => [s, 0])) as DomainStats['by_status'];
  for (const d of domains) by_status[d.status]++;
  const last = mondayOf(NOW.getTime());
  const funnel = Array.from({ length: weeks }, (_, i) => ({
    week_start: isoDay(last - (weeks - 1 - i) * 7 * DAY_MS),
    created: 0,
    invited: 0,
    activated: 0,
  }));
  const bump = (field: 'created' | 'invited' | 'activated', iso: string | null) => {
    const week = iso && funnel.find((w) => w.week_start === isoDay(mondayOf(Date.parse(iso))));
    if (week) week[field]++;
  };
  for (const d of domains) {
    bump('created', d.created_at);
    // The seed has no invitation date: an invited or active domain was invited a day after it was created.
    if (d.status === 'INVITED' || d.status === 'ACTIVE')
      bump('invited', new Date(Date.parse(d.created_at) + DAY_MS).toISOString());
    bump('activated', d.activated_at);
  }
  return { by_status, funnel };
}

/** GET /portal/stats/subscriptions: every catalogue product, in order, zeros included. */
export function subscriptionStats(): SubscriptionStats {
  const product = (product_code: string, product_name: string, active: number, trial: number, ended: number) => {
    const by_status = Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, 0])) as Record<
      (typeof SUBSCRIPTION_STATUSES)[number],
      number
    >;
    Object.assign(by_status, { ACTIVE: active, TRIAL: trial, INACTIVE: ended });
    return { product_code, product_name, active, total: active + trial + ended, by_status };
  };
  return { by_product: [product('BASIC', 'Basic', 14, 3, 2), product('PRO', 'Pro', 6, 1, 0)] };
}

/** GET /portal/stats/receipts: a steady, repeatable week-shaped curve, today last. */
export function receiptStats(days: number): ReceiptStats {
  return {
    per_day: Array.from({ length: days }, (_, i) => {
      const weekday = (i * 5) % 7;
      const allowed = 40 + weekday * 6 + (i % 4) * 3;
      const partial = 8 + (i % 5) * 2;
      const denied = 12 + (i % 3) * 4;
      return {
        date: isoDay(NOW.getTime() - (days - 1 - i) * DAY_MS),
        allowed,
        partial,
        denied,
        total: allowed + partial + denied,
      };
    }),
  };
}
