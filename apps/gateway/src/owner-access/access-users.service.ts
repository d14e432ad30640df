import type { AccessRole, AccessUser, DomainOwner } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { AppError, listPage, notFound } from '@platform/http';
import { enqueueMail } from '@platform/mail';
import { changeRecorder, type Actor } from '../audit/audit.repository';
import type { GatewayDb } from '../db/tables';
import { IdentityRepository } from '../identity/identity.repository';
import type { IdentityService } from '../identity/identity.service';
import { ownerSignInMail } from '../identity/sign-in-mail';
import { accessInvitationMail } from './access-mail';
import { assertKeepsAnOwner, assertMayTouchOwner, type AccessChange } from './owner-rules';
import { AccessUsersRepository, type AccessUserRow, type CustomerAccount } from './access-users.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

export const accessUserView = (u: AccessUserRow): AccessUser => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role as AccessRole,
  access: u.access,
  company_id: u.company_id,
  last_sign_in_at: u.last_sign_in_at ? u.last_sign_in_at.toISOString() : null,
  created_at: u.created_at.toISOString(),
});

/** Who acts on a customer's access users: the partner's key or user, or one of the customer's own (the owner console), in one customer account. */
export interface AccessActor extends CustomerAccount {
  actor: Actor;
  /** The acting access user's role in the owner console (only an OWNER touches OWNERs); absent for the partner. */
  role?: AccessRole;
}

/**
 * The customer's access users (the owner console's people), scoped by partner and company: a user
 * id of another account is 404. access:false or removal ends the user's sessions in the same
 * transaction; every change is in the partner's audit log. The account keeps an OWNER with access
 * (409 ACCESS_USER.LAST_OWNER), checked under a lock on its OWNERs (lockOwners), and in the owner
 * console only an OWNER grants, takes or removes OWNER (403).
 */
export class AccessUsersService {
  private readonly audit = changeRecorder<
    'access_user.invited' | 'access_user.provisioned' | 'access_user.updated' | 'access_user.removed'
  >('access_user', () => this.now());

  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly identity: IdentityService,
    private readonly now: () => number = Date.now,
  ) {}

  async list(account: CustomerAccount, query: { page: number; limit: number }) {
    const { items, meta } = await listPage(query, ({ offset, limitPlusOne }) =>
      new AccessUsersRepository(this.db).list(account, offset, limitPlusOne),
    );
    return { meta, result: items.map(accessUserView) };
  }

  async get(account: CustomerAccount, userId: string): Promise<AccessUser> {
    return accessUserView(await this.find(new AccessUsersRepository(this.db), account, userId));
  }

  /** Adds the user and e-mails the invitation (a sign-in link to the owner console). */
  async invite(by: AccessActor, input: { email: string; role: AccessRole; name?: string }): Promise<AccessUser> {
    assertMayTouchOwner(by.role, { newRole: input.role });
    try {
      return await inTransaction(this.db, async (trx: Kysely<GatewayDb>) => {
        const row = await new AccessUsersRepository(trx).insert({
          partner_id: by.partnerId,
          company_id: by.companyId,
          email: input.email,
          name: input.name ?? null,
          role: input.role,
        });
        const { url } = await this.identity.newSignInLink(trx, { owner_user_id: row.id });
        const partner = await trx
          .selectFrom('partners')
          .select('name')
          .where('id', '=', by.partnerId)
          .executeTakeFirstOrThrow();
        await enqueueMail(trx, [
          accessInvitationMail({ partnerId: by.partnerId, partnerName: partner.name, to: row.email, url }),
        ]);
        await this.audit(trx, by, 'access_user.invited', row.id, this.details(row));
        return accessUserView(row);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('ACCESS_USER.ALREADY_EXISTS');
      throw err;
    }
  }

  /**
   * Just in time: creates the user (VIEWER unless a role is given) or updates the one with that
   * address (role and name when given, access back on: provisioning is the partner letting them in
   * now), and answers a new single-use sign-in link. Nothing is e-mailed: the partner hands it over.
   */
  async provision(by: AccessActor, input: { email: string; role?: AccessRole; name?: string }) {
    return inTransaction(this.db, async (trx) => {
      const repo = new AccessUsersRepository(trx);
      if (input.role !== undefined)
        await this.assertKeepsAnOwner(repo, by, { email: input.email }, { role: input.role });
      const { row, created } = await repo.upsert(
        {
          partner_id: by.partnerId,
          company_id: by.companyId,
          email: input.email,
          name: input.name ?? null,
          role: input.role ?? 'VIEWER',
        },
        {
          access: true,
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(input.name !== undefined ? { name: input.name } : {}),
        },
      );
      const link = await this.identity.newSignInLink(trx, { owner_user_id: row.id });
      await this.audit(trx, by, 'access_user.provisioned', row.id, { ...this.details(row), created });
      return { user: accessUserView(row), sign_in_url: link.url, expires_at: link.expiresAt.toISOString() };
    });
  }

  /**
   * The owner console's "e-mail me a link" for a domain (after the throttles and the answer): a link
   * to an access user of the domain's customer with access on; or, for the domain's account_email,
   * to the customer's OWNER, created now when the address is no user yet. Anyone else: nothing.
   */
  async sendOwnerSignInLink(email: string, domain: DomainOwner): Promise<void> {
    const account = { partnerId: domain.partner_id, companyId: domain.company_id };
    await inTransaction(this.db, async (trx: Kysely<GatewayDb>) => {
      const repo = new AccessUsersRepository(trx);
      const isAccountOwner = email === domain.account_email.trim().toLowerCase();
      const row = isAccountOwner
        ? await repo.insertIfAbsent({
            partner_id: account.partnerId,
            company_id: account.companyId,
            email,
            role: 'OWNER',
          })
        : await repo.find(account, { email });
      if (!row?.access) return;
      const { url } = await this.identity.newSignInLink(trx, { owner_user_id: row.id });
      const partner = await trx
        .selectFrom('partners')
        .select('name')
        .where('id', '=', account.partnerId)
        .executeTakeFirstOrThrow();
      await enqueueMail(trx, [
        ownerSignInMail({
          partnerId: account.partnerId,
          partnerName: partner.name,
          to: row.email,
          url,
          hostname: domain.hostname,
        }),
      ]);
    });
  }

  async update(by: AccessActor, userId: string, input: { role?: AccessRole; access?: boolean }): Promise<AccessUser> {
    return inTransaction(this.db, async (trx) => {
      const repo = new AccessUsersRepository(trx);
      const row = await this.findChangeable(repo, by, userId, input);
      const updated = await repo.update(row.id, {
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.access !== undefined ? { access: input.access } : {}),
      });
      // Access off ends the user's sessions at once (resolving a session checks access too).
      if (input.access === false) await new IdentityRepository(trx).deleteSessions({ ownerUserId: row.id });
      const changes = {
        ...(input.role !== undefined && input.role !== row.role ? { role: { from: row.role, to: input.role } } : {}),
        ...(input.access !== undefined && input.access !== row.access
          ? { access: { from: row.access, to: input.access } }
          : {}),
      };
      await this.audit(trx, by, 'access_user.updated', row.id, { ...this.details(row), changes });
      return accessUserView(updated);
    });
  }

  async remove(by: AccessActor, userId: string) {
    await inTransaction(this.db, async (trx) => {
      const repo = new AccessUsersRepository(trx);
      const row = await this.findChangeable(repo, by, userId, 'remove');
      // Sessions and unused links go with the user (ON DELETE CASCADE), in this transaction.
      await repo.delete(row.id);
      await this.audit(trx, by, 'access_user.removed', row.id, this.details(row));
    });
  }

  /**
   * The user a change or removal is for, once it may happen: the account's OWNERs are locked
   * first (then the user's row), so the last-owner check sees every change that committed before.
   */
  private async findChangeable(
    repo: AccessUsersRepository,
    by: AccessActor,
    userId: string,
    change: AccessChange,
  ): Promise<AccessUserRow> {
    const owners = UUID.test(userId) ? await repo.lockOwners(by) : [];
    const row = await this.find(repo, by, userId);
    assertMayTouchOwner(by.role, {
      role: row.role as AccessRole,
      newRole: change === 'remove' ? undefined : change.role,
    });
    assertKeepsAnOwner(owners, row.id, change);
    return row;
  }

  /** A provision that names a role for an existing user must not demote the account's last OWNER either. */
  private async assertKeepsAnOwner(
    repo: AccessUsersRepository,
    account: CustomerAccount,
    which: { email: string },
    change: AccessChange,
  ) {
    const owners = await repo.lockOwners(account);
    const row = await repo.find(account, which);
    if (row) assertKeepsAnOwner(owners, row.id, change);
  }

  private details(row: AccessUserRow) {
    return { email: row.email, role: row.role, company_id: row.company_id };
  }

  private async find(repo: AccessUsersRepository, account: CustomerAccount, userId: string): Promise<AccessUserRow> {
    const row = UUID.test(userId) ? await repo.find(account, { id: userId }) : undefined;
    if (!row) throw notFound('access user');
    return row;
  }
}
