import { randomUUID } from 'node:crypto';
import { GATEWAY_ITSELF_PARTNER_ID, generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { PERMISSIONS, ROLE_PERMISSIONS, type EventMessage } from '@platform/contracts';
import { sql } from '@platform/db';
import { act, startSmtpServer, startTestService, type ApiResponse, type TestSmtpServer } from '@platform/testing';
import { saveCatalogueSnapshot } from '../../src/domains/db/catalogue.repository';
import { createDomainsService, type DomainsServiceOptions } from '../../src/service';
import { TEST_CATALOGUE } from './catalogue';

export interface TestPartner {
  id: string;
  token: string;
}

/** A signed-in portal user of a partner, as the gateway mints their token (with `user`). */
export interface TestUser extends TestPartner {
  userId: string;
  email: string;
}

export interface OutboxRow {
  routing_key: string;
  message: EventMessage;
}

export const WIDGET_BASE_URL = 'https://widget.test';

/**
 * domains-svc on the chassis, in-process on port 0, on a fresh database, with a real SMTP server
 * and real internal JWTs. Its scanner sends nothing beyond loopback: every site maps to a closed
 * port on 127.0.0.1 (SCANNER_CONNECT_TO) unless a test says otherwise.
 */
export async function startDomainsSvc(env: NodeJS.ProcessEnv = {}, options: DomainsServiceOptions = {}) {
  const smtp: TestSmtpServer = await startSmtpServer();
  // The harness signs tokens itself (as the gateway would) so it can name a portal user in them.
  const keys = generateInternalKeyPair();
  const minter = new InternalTokenMinter(keys.privateKey);
  const t = await startTestService(createDomainsService(options), {
    INTERNAL_JWT_PUBLIC_KEY: keys.publicKey,
    SCANNER_ALLOW_LOOPBACK: 'true',
    SCANNER_CONNECT_TO: '*:443:127.0.0.1:9,*:80:127.0.0.1:9',
    SCANNER_MODE: 'http',
    SCANNER_POLL_MS: '50',
    SMTP_URL: smtp.url,
    MAIL_POLL_MS: '50',
    WIDGET_BASE_URL,
    INSTANCE_ID: '7',
    INSTANCE_NAME: 'test-instance',
    INSTANCE_HOSTNAME: 'instance.test',
    INSTANCE_REGION: 'eu',
    ...env,
  });
  const base = t.url;
  const deps = { db: t.service.runtime.db };
  // billing-svc owns the catalogue; here it does not run, so its copy is arranged as a fetch would leave it.
  await saveCatalogueSnapshot(deps.db, TEST_CATALOGUE);

  /** A partner's API-key token as the gateway mints it: every key permission unless given, and the onboarding fields it requires. */
  const partner = (requiredFields: string[] = [], permissions: string[] = [...PERMISSIONS]): TestPartner =>
    apiKeyOf(`partner_${randomUUID()}`, { permissions, requiredFields });

  /** Another API-key token of an existing partner (no user in it), with the partner's name when given. */
  const apiKeyOf = (
    partnerId: string,
    options: { permissions?: string[]; requiredFields?: string[]; partnerName?: string } = {},
  ): TestPartner => ({
    id: partnerId,
    token: minter.mint(
      {
        partnerId,
        keyId: randomUUID(),
        permissions: options.permissions ?? [...PERMISSIONS],
        requiredFields: options.requiredFields ?? [],
        ...(options.partnerName === undefined ? {} : { partnerName: options.partnerName }),
      },
      'domains',
    ),
  });

  /** A signed-in portal user (an ADMINISTRATOR's permissions unless given) of a new partner, or of partnerId. */
  const portalUser = (options: { partnerId?: string; permissions?: string[]; partnerName?: string } = {}): TestUser => {
    const partnerId = options.partnerId ?? `partner_${randomUUID()}`;
    const userId = randomUUID();
    const email = `user-${userId.slice(0, 8)}@partner.example.org`;
    const permissions = options.permissions ?? [...ROLE_PERMISSIONS.ADMINISTRATOR];
    const token = minter.mint(
      {
        partnerId,
        keyId: `user:${userId}`,
        permissions,
        requiredFields: [],
        user: { id: userId, email },
        ...(options.partnerName === undefined ? {} : { partnerName: options.partnerName }),
      },
      'domains',
    );
    return { id: partnerId, token, userId, email };
  };

  /** The gateway asking for itself (a widget's visitor, no partner): what /internal routes for the gateway take. */
  const gatewayItself = (): TestPartner => ({
    id: GATEWAY_ITSELF_PARTNER_ID,
    token: minter.mint(
      {
        partnerId: GATEWAY_ITSELF_PARTNER_ID,
        keyId: 'gateway:test',
        permissions: ['domains:read', 'domains:write'],
        requiredFields: [],
      },
      'domains',
    ),
  });

  const call = (who: TestPartner | undefined, method: string, path: string, body?: unknown): Promise<ApiResponse> =>
    act(base, method, path, { token: who?.token, body });

  /** A widget request as the gateway forwards it: the public token, the page's Origin (and e.g. the visitor's X-Forwarded-For). */
  const visit = (
    origin: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> =>
    act(base, method, path, { token: minter.mintPublic('domains'), body, headers: { origin, ...headers } });

  const outbox = async (partnerId: string, event?: string): Promise<OutboxRow[]> => {
    const { rows } = await sql<OutboxRow>`
      SELECT routing_key, message FROM domains.outbox
      WHERE message->>'partner_id' = ${partnerId} AND (${event ?? null}::text IS NULL OR routing_key = ${event ?? null})
      ORDER BY created_at`.execute(deps.db);
    return rows;
  };

  /** Test builder for states only the widget reaches (ACTIVE). */
  const setStatus = async (domainId: string, status: string) => {
    await sql`UPDATE domains.domains SET status = ${status}, is_active = ${status !== 'INACTIVE'} WHERE id = ${domainId}`.execute(
      deps.db,
    );
  };

  return {
    base,
    adminUrl: t.adminUrl,
    deps,
    smtp,
    context: t.service.context,
    partner,
    apiKeyOf,
    portalUser,
    gatewayItself,
    call,
    visit,
    outbox,
    setStatus,
    close: async () => {
      await t.close();
      await smtp.close();
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startDomainsSvc>>;

let counter = 0;
export const uniqueHost = (prefix = 'shop') =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${randomUUID().slice(0, 6)}.example.com`;

export const createBody = (host: string, extra: Record<string, unknown> = {}) => ({
  domain: `https://${host}/landing`,
  company_name: `Company of ${host}`,
  account_email: `owner@${host}`,
  ...extra,
});

export { envelope } from '@platform/testing';

/** A new domain of `partner` on a fresh hostname: its id, its property's id and the hostname. */
export async function createTestDomain(h: Harness, partner: TestPartner, extra: Record<string, unknown> = {}) {
  const host = uniqueHost();
  const res = await h.call(partner, 'POST', '/portal/domains', createBody(host, extra));
  if (res.status !== 200) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.result.id as string, propertyId: res.body.result.instance_property_id as string, host };
}
export type TestDomain = Awaited<ReturnType<typeof createTestDomain>>;
