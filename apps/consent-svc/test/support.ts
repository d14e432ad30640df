import { randomBytes, randomUUID } from 'node:crypto';
import { generateInternalKeyPair, generateRecordSigningKeys, InternalTokenMinter } from '@platform/auth';
import { PERMISSIONS, type DomainState, type EventMessage } from '@platform/contracts';
import { connectAmqp, createPublisher } from '@platform/messaging';
import { createLogger } from '@platform/observability';
import {
  act,
  domainChanged,
  domainDeleted,
  domainEvent,
  domainState,
  startTestService,
  testInfra,
  waitFor,
  type ApiResponse,
} from '@platform/testing';
import { consentService } from '../src/service';

export type ConsentTest = Awaited<ReturnType<typeof startConsent>>;

/** A token the widget makes (visitor id, nonce): 32 URL-safe characters. */
export const token = () => randomBytes(24).toString('base64url');

/** consent-svc in-process with its own database and exchange; events published as domains-svc's relay would. */
export async function startConsent(env: NodeJS.ProcessEnv = {}) {
  const signingKeys = env.RECORD_SIGNING_KEYS ?? generateRecordSigningKeys();
  // The gateway's key pair: the tests mint what the gateway forwards (a partner's token, a widget call's).
  const gatewayKeys = generateInternalKeyPair();
  const minter = new InternalTokenMinter(gatewayKeys.privateKey);
  const t = await startTestService(consentService, {
    RECORD_SIGNING_KEYS: signingKeys,
    SMTP_URL: 'smtp://127.0.0.1:1',
    ...env,
    INTERNAL_JWT_PUBLIC_KEY: gatewayKeys.publicKey,
  });
  const logger = createLogger('consent-test', 'silent');
  const amqp = await connectAmqp((await testInfra()).amqpUrl, logger);
  await amqp.ready();
  const publisher = createPublisher(amqp, logger);
  // What the gateway forwards a widget call with: its public token.
  const anyone = minter.mintPublic('consent');
  const tokenFor = (partnerId: string, permissions: string[] = [...PERMISSIONS]) =>
    minter.mint({ partnerId, keyId: randomUUID(), permissions, requiredFields: [] }, 'consent');

  const partner = () => {
    const id = `partner_${randomUUID()}`;
    const partnerToken = tokenFor(id);
    return { id, get: (path: string): Promise<ApiResponse> => act(t.url, 'GET', path, { token: partnerToken }) };
  };
  /** A widget call from a page: its Origin and the visitor address the gateway forwards. */
  const widget = (
    method: string,
    path: string,
    options: { origin?: string; forwardedFor?: string; body?: unknown } = {},
  ) =>
    act(t.url, method, path, {
      token: anyone,
      body: options.body,
      headers: {
        ...(options.origin ? { origin: options.origin } : {}),
        ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
      },
    });
  const publish = (message: EventMessage) =>
    publisher.publish(t.exchange, message.payload.event, Buffer.from(JSON.stringify(message)), {
      messageId: message.id,
    });
  const property = (propertyId: string) =>
    t.service.runtime.db.selectFrom('properties').selectAll().where('property_id', '=', propertyId).executeTakeFirst();
  /** Publishes a domain's created state (domain.created and domain.changed) and waits until the projection has it. */
  const domain = async (partnerId: string, overrides: Partial<DomainState> = {}) => {
    const state = domainState(overrides);
    await publish(domainCreated(partnerId, state, 1));
    await publish(domainChanged(partnerId, state, 2));
    await waitFor(async () => ((await property(state.property_id))?.company.country === 'DE' ? true : undefined), {
      what: 'the projected property',
    });
    return state;
  };

  return {
    t,
    db: t.service.runtime.db,
    /** The test database as its owner (statistics, plans). */
    databaseUrl: t.databaseUrl,
    signingKeys,
    tokenFor,
    partner,
    widget,
    publish,
    property,
    domain,
    close: async () => {
      await publisher.close();
      await amqp.close();
      await t.close();
    },
  };
}

export { domainChanged, domainDeleted, domainState };

/** property.updated as domains-svc sends it: the changed settings in params, the property (with them) as its entity. */
export const propertyUpdated = (
  partnerId: string,
  domain: DomainState,
  version: number,
  changes: Record<string, unknown>,
) =>
  domainEvent(partnerId, domain.id, version, {
    event: 'property.updated',
    params: { property_id: domain.property_id, ...changes },
    entity: {
      kind: 'property',
      data: {
        id: domain.property_id,
        name: domain.hostname,
        description: '',
        status: 'ACTIVE',
        widget_font: 'Arial',
        widget_position: 'bottom-left',
        border_radius: '8',
        primary_color: '#000000',
        text_color: '#ffffff',
        has_scripts: true,
        has_dsar: true,
        has_docs: true,
        has_accessibility: true,
        has_accessibility_icon: true,
        display_dpo: false,
        display_company: true,
        has_welcome_message: false,
        has_continuous_scanning: false,
        company_id: domain.company_id,
        activated_at: null,
        created_at: domain.created_at,
        ...(typeof changes.has_dsar === 'boolean' ? { has_dsar: changes.has_dsar } : {}),
      },
    },
  });

/** domain.created as domains-svc sends it (the company's address lives only here). */
export function domainCreated(partnerId: string, domain: DomainState, version: number): EventMessage {
  const flags = {
    has_docs: true,
    has_dsar: true,
    has_scripts: true,
    has_accessibility: true,
    display_dpo: false,
    display_company: true,
  };
  return domainEvent(partnerId, domain.id, version, {
    event: 'domain.created',
    params: {
      domain_id: domain.id,
      domain: domain.hostname,
      action: 'CREATE_SILENT',
      source: 'API',
      status: domain.status,
      country: 'DE',
      city: 'Berlin',
      address: 'Unter den Linden 1',
      postal_code: '10117',
      product_id: 1,
      price_list_id: 1,
      ...flags,
      send_intro: false,
      company_name: domain.company_name,
      account_email: domain.owner_email,
      ...(domain.merchants[0] ? { merchant_id: domain.merchants[0] } : {}),
      subscription_id: randomUUID(),
    },
    entity: {
      kind: 'domain',
      data: {
        id: domain.id,
        hostname: domain.hostname,
        status: domain.status,
        ...flags,
        instance_property_id: domain.property_id,
        instance_company_id: domain.company_id,
        instance: { id: 1, name: 'local', hostname: '127.0.0.1', region: 'local' },
        created_at: domain.created_at,
        updated_at: domain.updated_at,
      },
    },
  });
}

/** A receipt body as the widget sends it. */
export const receipt = (overrides: Record<string, unknown> = {}) => ({
  receipt_type: 'COOKIE_CONSENT',
  subject: token(),
  consent_revision: 'rev-1',
  categories: { functional: true, analytics: true, marketing: true },
  gpc: false,
  widget_version: '1.0.0',
  nonce: token(),
  ...overrides,
});

export const receiptsPath = (propertyId: string) => `/widget/v1/properties/${propertyId}/receipts`;
