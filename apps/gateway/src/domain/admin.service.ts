import { isIP } from 'node:net';
import { z } from 'zod';
import { PERMISSIONS, permissionSchema, dateTime, REQUIRED_FIELDS } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { ApiKeysRepository, type ApiKeyRow } from '../db/api-keys.repository';
import { PartnersRepository, type PartnerRow } from '../db/partners.repository';
import type { GatewayDb } from '../db/tables';
import { generateApiKey } from './api-key';
import { emailSchema, userRoleSchema } from '@platform/contracts';
import { AppError } from '@platform/http';
import { createLogger } from '@platform/observability';
import { IdentityRepository } from '../identity/identity.repository';
import { IdentityService } from '../identity/identity.service';
import { UsersService } from '../identity/users.service';

/** A request the operator must fix (bad argument, unknown id): the CLI exits with code 2. */
export class AdminInputError extends Error {
  constructor(
    message: string,
    /** Which inputs were wrong (input name -> problem), so the CLI can name its own flags. */
    readonly issues: { input: string; message: string }[] = [],
  ) {
    super(message);
  }
}

const createPartnerInput = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  requiredFields: z.array(z.string().pipe(z.enum(REQUIRED_FIELDS))).default([]),
});

const code = z.string().trim().min(1, 'must not be empty').max(64);

const updatePartnerInput = z.object({
  partnerId: z.uuid('must be a partner id (uuid)'),
  requiredFields: createPartnerInput.shape.requiredFields.unwrap().optional(),
  /** A product code of billing-svc's catalogue; "none" clears it. */
  defaultProduct: code.optional(),
  defaultPriceList: code.optional(),
});

const createKeyInput = z.object({
  partnerId: z.uuid('must be a partner id (uuid)'),
  /** No list means every permission. */
  permissions: z.array(z.string().pipe(permissionSchema)).min(1).optional(),
  allowedIp: z
    .string()
    .refine((v) => isIP(v) !== 0, 'must be an IPv4 or IPv6 address')
    .optional(),
  expiresAt: dateTime().optional(),
  name: z.string().trim().min(1).max(100).optional(),
});

const keyIdInput = z.uuid('must be a key id (uuid)');

const inviteUserInput = z.object({
  partnerId: z.uuid('must be a partner id (uuid)'),
  email: emailSchema,
  role: userRoleSchema,
  name: z.string().trim().min(1).max(200).optional(),
});

const OPERATOR = { type: 'OPERATOR' as const, id: null, label: 'admin CLI' };

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ input: String(i.path[0] ?? 'value'), message: i.message }));
    throw new AdminInputError(issues.map((i) => `${i.input}: ${i.message}`).join('; '), issues);
  }
  return parsed.data;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const partnerView = (p: PartnerRow) => ({
  id: p.id,
  name: p.name,
  required_fields: p.required_fields,
  default_product: p.default_product,
  default_price_list: p.default_price_list,
  created_at: p.created_at.toISOString(),
});

/** What an operator may see of a key: never the key or its hash. */
const keyView = (k: ApiKeyRow, now = Date.now()) => ({
  id: k.id,
  partner_id: k.partner_id,
  name: k.name,
  prefix: k.prefix,
  permissions: k.permissions,
  allowed_ip: k.allowed_ip,
  expires_at: iso(k.expires_at),
  revoked_at: iso(k.revoked_at),
  created_at: k.created_at.toISOString(),
  status: k.revoked_at ? 'revoked' : k.expires_at && k.expires_at.getTime() <= now ? 'expired' : 'active',
});

/** Operator use cases behind the admin CLI. */
export class AdminService {
  constructor(
    private readonly db: Kysely<GatewayDb>,
    /** Where sign-in links point (PORTAL_URL). */
    private readonly portalUrl = 'http://127.0.0.1:8080/app',
  ) {}

  /**
   * Invites a portal user (an e-mail with a sign-in link, sent by the running gateway); a user
   * already on the partner's team is sent a new link instead (their role is kept). The link is
   * answered too, for the operator (npm start prints it).
   */
  async inviteUser(input: z.input<typeof inviteUserInput>) {
    const values = parse(inviteUserInput, input);
    await this.requirePartner(values.partnerId);
    const identity = new IdentityService(
      this.db,
      {
        portalUrl: this.portalUrl,
        sessionIdleMs: 0,
        sessionMaxAgeMs: 0,
        linksPerEmail: 1,
        linksPerClient: 1,
      },
      createLogger('gateway-admin', 'warn'),
    );
    const users = new UsersService(this.db, identity);
    const by = { partnerId: values.partnerId, actor: OPERATOR };
    const existing = await new IdentityRepository(this.db).findUser(values.partnerId, { email: values.email });
    try {
      const { user, link } = existing
        ? await users.reinvite(by, existing.id)
        : await users.invite(by, { email: values.email, role: values.role, name: values.name });
      return { created: !existing, user, sign_in_url: link };
    } catch (err) {
      if (err instanceof AppError) throw new AdminInputError(err.message);
      throw err;
    }
  }

  async createPartner(input: z.input<typeof createPartnerInput>) {
    const values = parse(createPartnerInput, input);
    const partner = await new PartnersRepository(this.db).insert({
      name: values.name,
      required_fields: [...new Set(values.requiredFields)],
    });
    return partnerView(partner);
  }

  /**
   * Changes a partner's onboarding settings and tells every gateway to reload its keys, so the
   * next request carries them. Codes are checked by domains-svc against billing's catalogue when
   * a domain is created (an unknown default answers 400 there, naming it).
   */
  async updatePartner(input: z.input<typeof updatePartnerInput>) {
    const values = parse(updatePartnerInput, input);
    const clear = (v: string | undefined) => (v === undefined ? undefined : v.toLowerCase() === 'none' ? null : v);
    const changes = {
      ...(values.requiredFields ? { required_fields: [...new Set(values.requiredFields)] } : {}),
      ...(values.defaultProduct !== undefined ? { default_product: clear(values.defaultProduct) } : {}),
      ...(values.defaultPriceList !== undefined ? { default_price_list: clear(values.defaultPriceList) } : {}),
    };
    if (Object.keys(changes).length === 0)
      throw new AdminInputError('nothing to change: give --require-fields, --default-product or --default-price-list');
    const row = await inTransaction(this.db, async (trx) => {
      const updated = await new PartnersRepository(trx).update(values.partnerId, changes);
      if (updated) await new ApiKeysRepository(trx).notifyPartnerChanged(updated.id);
      return updated;
    });
    if (!row) throw new AdminInputError(`no partner with id ${values.partnerId}`);
    return partnerView(row);
  }

  async listPartners() {
    return (await new PartnersRepository(this.db).list()).map(partnerView);
  }

  /** The only moment the full key exists: it is returned once and never stored. */
  async createKey(input: z.input<typeof createKeyInput>) {
    const values = parse(createKeyInput, input);
    await this.requirePartner(values.partnerId);
    const { key, prefix, hash } = generateApiKey();
    const row = await new ApiKeysRepository(this.db).insert({
      partner_id: values.partnerId,
      name: values.name ?? null,
      prefix,
      secret_hash: hash,
      permissions: [...new Set(values.permissions ?? PERMISSIONS)],
      allowed_ip: values.allowedIp ?? null,
      expires_at: values.expiresAt ? new Date(values.expiresAt) : null,
      created_by_type: 'OPERATOR',
    });
    const view = keyView(row);
    return {
      id: view.id,
      key,
      prefix: view.prefix,
      partner_id: view.partner_id,
      name: view.name,
      permissions: view.permissions,
      allowed_ip: view.allowed_ip,
      expires_at: view.expires_at,
      created_at: view.created_at,
    };
  }

  async listKeys(partnerId: string) {
    const id = parse(createKeyInput.shape.partnerId, partnerId);
    await this.requirePartner(id);
    return (await new ApiKeysRepository(this.db).listByPartner(id)).map((k) => keyView(k));
  }

  /** Revokes and notifies gateways in one transaction, so the notice goes out exactly when it is true. */
  async revokeKey(keyId: string) {
    const id = parse(keyIdInput, keyId);
    const row = await inTransaction(this.db, async (trx) => {
      const keys = new ApiKeysRepository(trx);
      const revoked = await keys.revoke(id);
      if (revoked) await keys.notifyChanged(revoked.prefix);
      return revoked;
    });
    if (!row) throw new AdminInputError(`no API key with id ${id}`);
    return keyView(row);
  }

  private async requirePartner(id: string) {
    const partner = await new PartnersRepository(this.db).findById(id);
    if (!partner) throw new AdminInputError(`no partner with id ${id}`);
    return partner;
  }
}
