// The fake API's memory and its answers, per operationId (see fake-api.ts for routing and auth).
import { createHash } from 'node:crypto';
import {
  EMAIL_TEMPLATE_VARIABLES,
  errorObject,
  EVENT_REGISTRY,
  eventBodyJsonSchema,
  exampleEventPayload,
  PERMISSIONS,
  PUBLIC_EVENT_NAMES,
  ROLE_PERMISSIONS,
  type DomainDetail,
  type EmailTemplate,
  type Merchant,
  type OwnerSession,
  type Session,
  type User,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@platform/contracts';
import type { ApiKey, AuditEvent, PartnerSettings } from '../../src/api/types';
import { AppError, newToken } from './fake-errors';
import { FakeImports, templateCsv } from './fake-imports';
import { FakeOwnerConsole } from './fake-owner';
import { FakeOwnerRequests } from './fake-owner-requests';
import { domainFigures, fakeFigures } from './fake-figures';
import * as seed from './fake-data';

export interface FakeSession {
  userId: string;
  stage: Session['stage'];
  csrf: string;
}
export interface FakeOwnerSession {
  ownerUserId: string;
  csrf: string;
}
/** A customer's access user (the owner console's people), of one company. */
export interface FakeOwnerUser {
  id: string;
  email: string;
  name: string | null;
  role: OwnerSession['user']['role'];
  companyId: string;
  /** false: cannot sign in, sessions ended. */
  access: boolean;
  lastSignInAt: string | null;
  createdAt: string;
}
const ownerUser = (
  id: string,
  email: string,
  name: string | null,
  role: FakeOwnerUser['role'],
  companyId: string,
  extra: Partial<FakeOwnerUser> = {},
): [string, FakeOwnerUser] => [
  id,
  {
    id,
    email,
    name,
    role,
    companyId,
    access: true,
    lastSignInAt: seed.daysAgo(1),
    createdAt: seed.daysAgo(60),
    ...extra,
  },
];
/** Two domains of one company (the console's website picker): shop9 and shop12. */
const MULTI_COMPANY = 'comp_multi';
type Json = Record<string, unknown>;
interface Ctx {
  params: Record<string, string>;
  query: Json;
  body: Json;
  session: FakeSession | undefined;
  cookie: string | undefined;
  /** The owner console's session and cookie (pp_owner_session), for the /portal/owner routes. */
  owner: FakeOwnerSession | undefined;
  ownerCookie: string | undefined;
}
export interface Answer {
  status?: number;
  /** JSON, or the bytes of a download when contentType is set. */
  body?: unknown;
  contentType?: string;
  setCookie?: string;
}

/** The TOTP code the fake accepts (the real gateway checks RFC 6238 codes with otpauth). */
export const FAKE_TOTP_CODE = '123456';
/** The gateway's answer to a wrong TOTP or recovery code. */
const wrongCode = () => new AppError('AUTH.TOTP', 401, errorObject('AUTH.TOTP').message);
const notFound = () => new AppError('RESOURCE.NOT_FOUND', 404, 'The resource does not exist.');
const page = <T>(rows: T[], query: Json) => {
  const p = Number(query.page ?? 1);
  const limit = Number(query.limit ?? 10);
  const slice = rows.slice((p - 1) * limit, p * limit);
  const meta = {
    current_page: p,
    ...(rows.length > p * limit ? { next_page: p + 1 } : {}),
    ...(p > 1 ? { prev_page: p - 1 } : {}),
  };
  return { body: { meta, result: slice } };
};
const ok = (result: unknown, status?: number): Answer => ({ status, body: { result } });

export class FakeState {
  readonly users = new Map<string, User>([
    ['usr_admin', seed.user('usr_admin', 'ada@acme.example', 'Ada Admin', 'ADMINISTRATOR')],
    ['usr_dev', seed.user('usr_dev', 'dev@acme.example', 'Dev Eloper', 'DEVELOPER')],
    ['usr_totp', seed.user('usr_totp', 'tom@acme.example', 'Tom Totp', 'ACCOUNT_MANAGER', { totp_enabled: true })],
    [
      'usr_new',
      seed.user('usr_new', 'ivy@acme.example', 'Ivy Invited', 'DEVELOPER', {
        status: 'INVITED',
        last_sign_in_at: null,
      }),
    ],
  ]);
  readonly sessions = new Map<string, FakeSession>();
  /** Sign-in tokens by hash (as the gateway stores them) -> user id; the plain token is kept only per e-mail for the tests. */
  private readonly tokens = new Map<string, string>();
  readonly linksSent = new Map<string, string>();
  /** Owner console links "e-mailed" by createOwnerSignInLink: address -> token. */
  readonly ownerLinksSent = new Map<string, string>();
  domains: DomainDetail[] = seed
    .seedDomains()
    .map((d) => (['dom_0009', 'dom_0012'].includes(d.id) ? { ...d, instance_company_id: MULTI_COMPANY } : d));
  merchants: Merchant[] = [seed.merchant(1, this.domains[3]), seed.merchant(2), seed.merchant(3)];
  apiKeys: ApiKey[] = [
    seed.apiKey('key_0001', 'Shop sync'),
    seed.apiKey('key_0002', 'Old importer', { revoked_at: seed.daysAgo(3) }),
    // A key as real ones come: a long name and creator, every permission, an expiry.
    seed.apiKey('key_0003', 'Nightly export to the accounting system', {
      permissions: [...PERMISSIONS],
      created_by: { type: 'USER', id: 'usr_former', email: 'dev.operations-team@acme-hosting.example' },
      expires_at: seed.daysAgo(-90),
    }),
  ];
  /** Secrets handed out, by key id (the tests check one is shown once). */
  readonly secrets = new Map<string, string>();
  endpoints: WebhookEndpoint[] = [
    seed.endpoint('whe_1', 'https://hooks.acme.example/platform', { description: 'Production' }),
    seed.endpoint('whe_2', 'https://old.acme.example/hook', { enabled: false, disabled_reason: 'failing' }),
  ];
  deliveries: WebhookDelivery[] = [
    seed.delivery('msg_1', 'whe_1', 'succeeded'),
    seed.delivery('msg_2', 'whe_1', 'failed', 'domain.deleted'),
    seed.delivery('msg_3', 'whe_1', 'pending', 'property.activated'),
  ];
  templates: EmailTemplate[] = (['INVITATION', 'INTRO', 'SCAN_REPORT', 'ACTIVATION_REMINDER'] as const).map(
    seed.template,
  );
  audit: AuditEvent[] = [
    seed.auditEvent(1, 'api_key.created'),
    seed.auditEvent(2, 'user.invited'),
    seed.auditEvent(3, 'domain.deleted'),
  ];
  settings: PartnerSettings = seed.defaultSettings();
  readonly imports = new FakeImports(this);
  /**
   * Access users: shop4's company (that one domain) has an owner, an admin, a viewer and one whose
   * access is off; another company has two domains (shop9, shop12), another a NEW one (shop1), and one none.
   */
  readonly ownerUsers = new Map<string, FakeOwnerUser>([
    ownerUser('own_shop', 'olga@shop4.example.com', 'Olga Owner', 'OWNER', 'comp_4', { createdAt: seed.daysAgo(90) }),
    ownerUser('own_admin', 'adam@shop4.example.com', 'Adam Admin', 'ADMIN', 'comp_4'),
    ownerUser('own_viewer', 'vera@shop4.example.com', 'Vera Viewer', 'VIEWER', 'comp_4', {
      lastSignInAt: seed.daysAgo(6),
    }),
    ownerUser('own_off', 'otto@shop4.example.com', null, 'VIEWER', 'comp_4', { access: false, lastSignInAt: null }),
    ownerUser('own_multi', 'mia@multi.example.com', 'Mia Many', 'OWNER', MULTI_COMPANY),
    ownerUser('own_new', 'nils@shop1.example.com', 'Nils New', 'OWNER', 'comp_1'),
    ownerUser('own_empty', 'ed@nowhere.example', null, 'VIEWER', 'comp_none'),
  ]);
  /** The owner console's domains and users (fake-owner.ts). */
  readonly ownerConsole = new FakeOwnerConsole(this);
  /** The owner console's data subject requests (fake-owner-requests.ts). */
  readonly ownerRequests = new FakeOwnerRequests(this.ownerConsole);
  readonly ownerSessions = new Map<string, FakeOwnerSession>();
  /** Owner sign-in tokens by hash -> access user id (kept apart from the partner users' tokens, as the gateway's audience). */
  private readonly ownerTokens = new Map<string, string>();

  /** A sign-in link's token for this user, as if they had clicked the e-mail (single use). */
  issueToken(userId: string): string {
    const token = newToken();
    this.tokens.set(createHash('sha256').update(token).digest('hex'), userId);
    return token;
  }

  /** An owner console sign-in link's token (single use), as provision answers it in sign_in_url. */
  issueOwnerToken(ownerUserId: string): string {
    const token = newToken();
    this.ownerTokens.set(createHash('sha256').update(token).digest('hex'), ownerUserId);
    return token;
  }

  /** An owner console session's cookie, for tests that start signed in to the console. */
  signInOwner(ownerUserId: string): string {
    const cookie = newToken();
    this.ownerSessions.set(cookie, { ownerUserId, csrf: newToken() });
    return cookie;
  }

  ownerSessionOf(s: FakeOwnerSession): OwnerSession {
    const u = this.ownerUsers.get(s.ownerUserId)!;
    return {
      audience: 'OWNER',
      user: { id: u.id, email: u.email, name: u.name, role: u.role },
      partner: { name: this.settings.name },
      company_id: u.companyId,
      domains: this.domains
        .filter((d) => d.instance_company_id === u.companyId)
        .map((d) => ({ id: d.id, hostname: d.hostname, privacy_widget: d.privacy_widget })),
      csrf_token: s.csrf,
    };
  }

  /** An ACTIVE session's cookie, for tests that start signed in. */
  signIn(userId: string): string {
    const cookie = newToken();
    this.sessions.set(cookie, { userId, stage: 'ACTIVE', csrf: newToken() });
    return cookie;
  }

  sessionOf(s: FakeSession): Session {
    const u = this.users.get(s.userId)!;
    return {
      stage: s.stage,
      user: { id: u.id, email: u.email, name: u.name, role: u.role, totp_enabled: u.totp_enabled },
      partner: { ...seed.PARTNER, name: this.settings.name, totp_required: this.settings.totp_required },
      permissions: [...ROLE_PERMISSIONS[u.role]],
      csrf_token: s.csrf,
    };
  }

  answer(operationId: string, ctx: Ctx): Answer {
    const handler =
      (this.handlers as Record<string, (c: Ctx) => Answer>)[operationId] ??
      this.ownerConsole.handlers[operationId] ??
      this.ownerRequests.handlers[operationId];
    if (!handler) throw new AppError('SERVICE.UNAVAILABLE', 503, `The fake does not answer ${operationId}.`);
    return handler(ctx);
  }

  private userOf = (id: string) =>
    this.users.get(id) ??
    (() => {
      throw notFound();
    })();

  private domainOf = (id: string) =>
    this.domains.find((d) => d.id === id) ??
    (() => {
      throw notFound();
    })();

  private readonly handlers = {
    createSignInLink: ({ body }: Ctx) => {
      const found = [...this.users.values()].find((u) => u.email === body.email && u.status !== 'DEACTIVATED');
      if (found) this.linksSent.set(found.email, this.issueToken(found.id));
      return ok({ sent: true }, 202);
    },
    createSession: ({ body }: Ctx) => {
      const hash = createHash('sha256').update(String(body.token)).digest('hex');
      const userId = this.tokens.get(hash);
      if (!userId) throw new AppError('AUTH.SIGN_IN_LINK', 401, errorObject('AUTH.SIGN_IN_LINK').message);
      this.tokens.delete(hash);
      const u = this.users.get(userId)!;
      const stage = u.totp_enabled
        ? 'TOTP_REQUIRED'
        : this.settings.totp_required
          ? 'TOTP_ENROLMENT_REQUIRED'
          : 'ACTIVE';
      const cookie = newToken();
      const s = { userId, stage, csrf: newToken() } as FakeSession;
      this.sessions.set(cookie, s);
      return {
        status: 201,
        body: { result: this.sessionOf(s) },
        setCookie: `pp_session=${cookie}; HttpOnly; SameSite=Lax; Path=/`,
      };
    },
    getSession: ({ session }: Ctx) => ok(this.sessionOf(session!)),
    createOwnerSignInLink: ({ body }: Ctx) => {
      // As the gateway: a link only for an access user of the domain's company; the same 202 for anyone.
      const domain = this.domains.find((d) => d.id === body.domain_id);
      const found = [...this.ownerUsers.values()].find(
        (u) => u.email === body.email && u.companyId === domain?.instance_company_id,
      );
      if (found) this.ownerLinksSent.set(found.email, this.issueOwnerToken(found.id));
      return ok({ sent: true }, 202);
    },
    createOwnerSession: ({ body }: Ctx) => {
      const hash = createHash('sha256').update(String(body.token)).digest('hex');
      const ownerUserId = this.ownerTokens.get(hash);
      if (!ownerUserId) throw new AppError('AUTH.SIGN_IN_LINK', 401, errorObject('AUTH.SIGN_IN_LINK').message);
      this.ownerTokens.delete(hash);
      const cookie = this.signInOwner(ownerUserId);
      return {
        status: 201,
        body: { result: this.ownerSessionOf(this.ownerSessions.get(cookie)!) },
        setCookie: `pp_owner_session=${cookie}; HttpOnly; SameSite=Lax; Path=/`,
      };
    },
    getOwnerSession: ({ owner }: Ctx) => ok(this.ownerSessionOf(owner!)),
    deleteOwnerSession: ({ ownerCookie }: Ctx) => {
      this.ownerSessions.delete(ownerCookie!);
      return { status: 204, setCookie: 'pp_owner_session=; Max-Age=0; Path=/' };
    },
    deleteSession: ({ cookie }: Ctx) => {
      this.sessions.delete(cookie!);
      return { status: 204, setCookie: 'pp_session=; Max-Age=0; Path=/' };
    },
    verifySessionTotp: ({ body, session }: Ctx) => {
      if (body.code !== FAKE_TOTP_CODE && body.recovery_code !== 'recover-me') throw wrongCode();
      session!.stage = 'ACTIVE';
      return ok(this.sessionOf(session!));
    },
    startTotpEnrolment: ({ session }: Ctx) =>
      ok(
        {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauth_uri: `otpauth://totp/Platform:${this.users.get(session!.userId)!.email}?secret=JBSWY3DPEHPK3PXP&issuer=Platform`,
        },
        201,
      ),
    disableTotp: ({ body, session }: Ctx) => {
      if (this.settings.totp_required)
        throw new AppError('TOTP.INVALID_STATE', 409, errorObject('TOTP.INVALID_STATE').message);
      if (body.code !== FAKE_TOTP_CODE) throw wrongCode();
      this.users.get(session!.userId)!.totp_enabled = false;
      return { status: 204 };
    },
    confirmTotpEnrolment: ({ body, session }: Ctx) => {
      if (body.code !== FAKE_TOTP_CODE) throw wrongCode();
      this.users.get(session!.userId)!.totp_enabled = true;
      session!.stage = 'ACTIVE';
      return ok({ recovery_codes: Array.from({ length: 10 }, (_, i) => `rc-${i}-abcd-efgh`) });
    },
    listDomains: ({ query }: Ctx) => {
      let rows = this.domains.filter((d) => (query.status ? d.status === query.status : d.status !== 'INACTIVE'));
      if (query.search) rows = rows.filter((d) => d.hostname.includes(String(query.search)) || d.id === query.search);
      return page(rows, query);
    },
    getDomain: ({ params }: Ctx) => ok(this.domainOf(params.domainId)),
    createDomain: ({ body }: Ctx) => {
      const missing = this.settings.required_fields.filter((f) => !body[f]);
      if (missing.length)
        throw new AppError('VALIDATION.INVALID', 400, 'The request data is invalid.', {
          issues: missing.map((f) => ({ path: `body.${f}`, message: 'is required by your onboarding settings' })),
        });
      if (this.domains.some((d) => d.hostname === body.domain))
        throw new AppError('DOMAIN.ALREADY_EXISTS', 409, 'The domain is already registered.');
      const d = {
        ...seed.domain(this.domains.length + 1, 'NEW', 0, String(body.domain)),
        source: 'PORTAL' as const,
        email: String(body.account_email),
      };
      this.domains.unshift(d);
      return ok(d, 201);
    },
    deleteDomain: ({ params }: Ctx) => {
      this.domainOf(params.domainId);
      this.domains = this.domains.filter((d) => d.id !== params.domainId);
      return ok({ deleted: true });
    },
    deactivateDomain: ({ params }: Ctx) => ((this.domainOf(params.domainId).status = 'INACTIVE'), ok({})),
    activateDomain: ({ params }: Ctx) => ((this.domainOf(params.domainId).status = 'ACTIVE'), ok({})),
    inviteDomain: ({ params }: Ctx) => ((this.domainOf(params.domainId).status = 'INVITED'), ok({})),
    listSubdomains: ({ params }: Ctx) => (this.domainOf(params.domainId), ok([])),
    getDomainScan: ({ params }: Ctx) => {
      const d = this.domainOf(params.domainId);
      if (d.status === 'NEW') throw notFound();
      return ok({
        id: `scan_${d.id}`,
        domain_id: d.id,
        status: 'completed',
        mode: 'browser',
        requested_by: 'API',
        started_at: seed.daysAgo(2),
        finished_at: seed.daysAgo(2),
        pages: [`https://${d.hostname}/`],
        findings: {
          scripts: [],
          cookies: [],
          iframes: [],
          counts: { necessary: 2, functional: 1, analytics: 3, marketing: 4, unclassified: 0 },
        },
        errors: [],
        created_at: seed.daysAgo(2),
      });
    },
    startDomainScan: ({ params }: Ctx) => (
      this.domainOf(params.domainId),
      ok(
        {
          id: 'scan_new',
          domain_id: params.domainId,
          status: 'queued',
          mode: null,
          requested_by: 'API',
          started_at: null,
          finished_at: null,
          pages: [],
          findings: { scripts: [], cookies: [], iframes: [], counts: {} },
          errors: [],
          created_at: seed.NOW.toISOString(),
        },
        202,
      )
    ),
    listRecords: ({ query }: Ctx) => {
      const d = this.domainOf(String(query.domain_id));
      const rows =
        d.status !== 'ACTIVE'
          ? []
          : (['ALLOWED', 'PARTIAL', 'DENIED'] as const).map((receipt_status, i) =>
              seed.consentRecord(d, i, receipt_status),
            );
      return page(rows, query);
    },
    listProducts: () =>
      ok([
        { id: 1, code: 'BASIC', name: 'Basic', type: 'WIDGET', features: [], prices: [] },
        { id: 2, code: 'PRO', name: 'Pro', type: 'WIDGET', features: [], prices: [] },
      ]),
    changeSubscriptionProduct: () => ok({ changed: true }),
    bulkChangeSubscriptionProduct: ({ body }: Ctx) => {
      const entries = body.domains as { id: string; product: string }[];
      const known = entries.filter((e) => this.domains.some((d) => d.id === e.id));
      const failed = entries
        .filter((e) => !known.includes(e))
        .map((e) => ({
          domain_id: e.id,
          error: { code: 'RESOURCE.NOT_FOUND', ns: 'RESOURCE', message: 'The domain does not exist.', status: 404 },
        }));
      return ok({ changed: known.map((e) => ({ domain_id: e.id, changed: true })), failed });
    },
    listMerchants: ({ query }: Ctx) =>
      page(
        this.merchants.filter((m) => !query.search || m.merchant_id.includes(String(query.search))),
        query,
      ),
    getMerchant: ({ params }: Ctx) =>
      ok(
        this.merchants.find((m) => m.id === params.merchantId) ??
          (() => {
            throw notFound();
          })(),
      ),
    createMerchant: ({ body }: Ctx) => {
      const m = { ...seed.merchant(this.merchants.length + 1), ...body } as Merchant;
      this.merchants.unshift(m);
      return ok(m, 201);
    },
    updateMerchant: ({ params, body }: Ctx) =>
      ok(Object.assign(this.merchants.find((m) => m.id === params.merchantId) ?? {}, body)),
    deleteMerchant: ({ params }: Ctx) => (
      (this.merchants = this.merchants.filter((m) => m.id !== params.merchantId)),
      ok({ deleted: true })
    ),
    listApiKeys: ({ query }: Ctx) => page(this.apiKeys, query),
    createApiKey: ({ body }: Ctx) => this.newKey(String(body.name), body.permissions as string[]),
    revokeApiKey: ({ params }: Ctx) => {
      const key =
        this.apiKeys.find((k) => k.id === params.keyId) ??
        (() => {
          throw notFound();
        })();
      key.revoked_at = seed.NOW.toISOString();
      return ok(key);
    },
    rollApiKey: ({ params }: Ctx) => {
      const old =
        this.apiKeys.find((k) => k.id === params.keyId) ??
        (() => {
          throw notFound();
        })();
      const answer = this.newKey(old.name, old.permissions);
      old.rolled_to = (answer.body as { result: ApiKey }).result.id;
      return answer;
    },
    listWebhookEndpoints: ({ query }: Ctx) => page(this.endpoints, query),
    listWebhookEventTypes: () =>
      ok(
        PUBLIC_EVENT_NAMES.map((name) => ({
          name,
          description: EVENT_REGISTRY[name].description ?? name,
          example: exampleEventPayload(name),
          schema: eventBodyJsonSchema(name),
        })),
      ),
    getWebhookEndpoint: ({ params }: Ctx) =>
      ok(
        this.endpoints.find((e) => e.id === params.endpointId) ??
          (() => {
            throw notFound();
          })(),
      ),
    createWebhookEndpoint: ({ body }: Ctx) => {
      const e = seed.endpoint(`whe_${this.endpoints.length + 1}`, String(body.url), {
        events: (body.events as string[] | null) ?? null,
        description: String(body.description ?? ''),
      });
      this.endpoints.push(e);
      return ok({ ...e, secret: 'whsec_' + newToken() }, 201);
    },
    updateWebhookEndpoint: ({ params, body }: Ctx) => {
      const e =
        this.endpoints.find((x) => x.id === params.endpointId) ??
        (() => {
          throw notFound();
        })();
      Object.assign(
        e,
        body,
        body.enabled === false ? { disabled_reason: 'manual' } : body.enabled ? { disabled_reason: null } : {},
      );
      return ok(e);
    },
    rotateWebhookSecret: ({ params }: Ctx) =>
      ok({ ...this.endpoints.find((e) => e.id === params.endpointId)!, secret: 'whsec_' + newToken() }),
    sendWebhookTest: ({ params, body }: Ctx) => {
      const d = seed.delivery(
        `msg_${this.deliveries.length + 1}`,
        params.endpointId,
        'pending',
        String(body.event ?? 'domain.created'),
      );
      this.deliveries.unshift(d);
      return ok(d, 202);
    },
    listWebhookDeliveries: ({ params, query }: Ctx) =>
      page(
        this.deliveries.filter(
          (d) => d.endpoint_id === params.endpointId && (!query.status || d.status === query.status),
        ),
        query,
      ),
    retryWebhookDelivery: ({ params }: Ctx) =>
      ok(
        this.deliveries.find((d) => d.id === params.deliveryId),
        202,
      ),
    recoverWebhookDeliveries: () => ok({ recovered: 1 }, 202),
    listEmailTemplates: () => ok(this.templates),
    getEmailTemplate: ({ params }: Ctx) => ok(this.templates.find((t) => t.kind === params.kind)),
    putEmailTemplate: ({ params, body }: Ctx) =>
      ok(
        Object.assign(
          this.templates.find((t) => t.kind === params.kind)!,
          body,
          { customized: true, updated_at: seed.NOW.toISOString() },
        ),
      ),
    resetEmailTemplate: ({ params }: Ctx) => {
      const reset = { ...seed.template(params.kind as EmailTemplate['kind']), customized: false, updated_at: null };
      this.templates = this.templates.map((t) => (t.kind === params.kind ? reset : t));
      return ok(reset);
    },
    previewEmailTemplate: ({ params, body }: Ctx) => {
      // As the service does: the kind's variables filled with the contract's examples.
      const examples = new Map(
        EMAIL_TEMPLATE_VARIABLES[params.kind as EmailTemplate['kind']].map((v) => [v.name, v.example]),
      );
      const fill = (s: string, escape: (v: string) => string) =>
        s.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => escape(examples.get(name) ?? ''));
      const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&#34;');
      // The body is HTML with its values escaped; the text part is that HTML without its tags.
      const html = fill(String(body.body), escapeHtml);
      const text = fill(String(body.body).replace(/<[^>]*>/g, ''), (v) => v);
      return ok({ subject: fill(String(body.subject), (v) => v), text, html });
    },
    sendTestEmailTemplate: ({ session }: Ctx) => ok({ to: this.users.get(session!.userId)!.email }, 202),
    listUsers: ({ query }: Ctx) => page([...this.users.values()], query),
    createUser: ({ body }: Ctx) => {
      if ([...this.users.values()].some((u) => u.email === body.email))
        throw new AppError('USER.ALREADY_EXISTS', 409, errorObject('USER.ALREADY_EXISTS').message);
      const u = seed.user(
        `usr_${this.users.size + 1}`,
        String(body.email),
        String(body.name ?? ''),
        body.role as User['role'],
        { status: 'INVITED', last_sign_in_at: null },
      );
      this.users.set(u.id, u);
      return ok(u, 201);
    },
    updateUser: ({ params, body }: Ctx) => {
      const u = this.userOf(params.userId);
      if (body.role) u.role = body.role as User['role'];
      if (body.active !== undefined) u.status = body.active ? 'ACTIVE' : 'DEACTIVATED';
      return ok(u);
    },
    getUser: ({ params }: Ctx) => ok(this.userOf(params.userId)),
    deleteUser: ({ params }: Ctx) => (
      this.userOf(params.userId),
      this.users.delete(params.userId),
      ok({ deleted: true })
    ),
    reinviteUser: ({ params }: Ctx) => ok(this.userOf(params.userId), 202),
    listAuditEvents: ({ query }: Ctx) =>
      page(
        this.audit.filter((e) => !query.kind || e.kind === query.kind),
        query,
      ),
    getDomainStats: ({ query }: Ctx) => ok(seed.domainStats(this.domains, Number(query.weeks))),
    getSubscriptionStats: () => ok(seed.subscriptionStats()),
    getWebhookStats: () => {
      const failed = this.deliveries.filter((d) => d.status === 'failed');
      const pending = this.deliveries.filter((d) => d.status === 'pending');
      const failing = this.endpoints
        .filter((e) => failed.some((d) => d.endpoint_id === e.id) || e.disabled_reason === 'failing')
        .map((e) => ({
          id: e.id,
          url: e.url,
          enabled: e.enabled,
          failing_since: seed.daysAgo(e.enabled ? 1 : 6),
          last_failure_at: seed.daysAgo(e.enabled ? 0.5 : 3),
          failed_last_24h: failed.filter((d) => d.endpoint_id === e.id).length,
        }));
      return ok({
        endpoints: { total: this.endpoints.length, disabled: this.endpoints.filter((e) => !e.enabled).length, failing },
        pending: pending.length,
        oldest_pending_delivery_at: pending.at(-1)?.created_at ?? null,
        failed_last_24h: failed.length,
      });
    },
    getReceiptStats: ({ query }: Ctx) => ok(seed.receiptStats(Number(query.days))),
    getPortfolioStats: ({ query }: Ctx) => ok(fakeFigures(String(query.from), String(query.to), this.domains.length)),
    getPropertyStats: ({ query }: Ctx) =>
      ok(domainFigures(this.domainOf(String(query.domain_id)), String(query.from), String(query.to))),
    createDomainImport: ({ body, session }: Ctx) => {
      const { status, result } = this.imports.create(body, session!.userId);
      return ok(result, status);
    },
    getDomainImportTemplate: ({ query }: Ctx) => {
      if (query.format !== 'csv')
        throw new AppError('SERVICE.UNAVAILABLE', 503, 'The fake serves the csv template only.');
      return { body: templateCsv(), contentType: 'text/csv; charset=utf-8' };
    },
    getDomainImport: ({ params }: Ctx) => ok(this.imports.get(params.importId)),
    listDomainImportRows: ({ params, query }: Ctx) => page(this.imports.rows(params.importId), query),
    getSettings: () => ok(this.settings),
    updateSettings: ({ body }: Ctx) => ok(Object.assign(this.settings, body)),
  };

  private newKey(name: string | null, permissions: string[]): Answer {
    const id = `key_${String(this.apiKeys.length + 1).padStart(4, '0')}`;
    const secret = `${seed.apiKey(id, name).prefix}_${newToken()}`;
    const key = seed.apiKey(id, name, { permissions, last_used_at: null, created_at: seed.NOW.toISOString() });
    this.apiKeys.unshift(key);
    this.secrets.set(id, secret);
    return ok({ ...key, secret }, 201);
  }
}
