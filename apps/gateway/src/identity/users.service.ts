import type { User, UserRole } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { AppError, listPage, notFound } from '@platform/http';
import { changeRecorder, type Actor } from '../audit/audit.repository';
import type { GatewayDb } from '../db/tables';
import { IdentityRepository, type UserRow } from './identity.repository';
import type { IdentityService } from './identity.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const userView = (u: UserRow): User => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role as UserRole,
  status: u.status,
  totp_enabled: u.totp_enabled_at !== null,
  last_sign_in_at: iso(u.last_sign_in_at),
  created_at: u.created_at.toISOString(),
});

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

/** Who acts on the team: the partner and the actor (a signed-in user, or an operator with the CLI). */
export interface TeamActor {
  partnerId: string;
  actor: Actor;
}

/**
 * The partner's team: invite, list, change, deactivate, remove. A role change, deactivation or
 * removal ends the user's sessions in the same transaction; every change drops the gateways'
 * copies of the user's sessions at commit (a name change shows at the next request too).
 */
export class UsersService {
  private readonly audit = changeRecorder<'user.invited' | 'user.updated' | 'user.removed'>('user', () => this.now());

  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly identity: IdentityService,
    private readonly now: () => number = Date.now,
  ) {}

  list(partnerId: string, query: { page: number; limit: number }) {
    return listPage(query, ({ offset, limitPlusOne }) =>
      new IdentityRepository(this.db).listUsers(partnerId, offset, limitPlusOne),
    ).then(({ items, meta }) => ({ meta, result: items.map(userView) }));
  }

  async get(partnerId: string, userId: string): Promise<User> {
    return userView(await this.find(new IdentityRepository(this.db), partnerId, userId));
  }

  /** Creates an INVITED user and e-mails the invitation (a sign-in link); the link is answered for the CLI. */
  async invite(by: TeamActor, input: { email: string; name?: string; role: UserRole }) {
    try {
      return await inTransaction(this.db, async (trx) => {
        const row = await new IdentityRepository(trx).insertUser({
          partner_id: by.partnerId,
          email: input.email,
          name: input.name ?? null,
          role: input.role,
        });
        const link = await this.identity.sendLink(trx, row, true);
        await this.audit(trx, by, 'user.invited', row.id, { email: row.email, role: row.role });
        return { user: userView(row), link };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('USER.ALREADY_EXISTS');
      throw err;
    }
  }

  /** A new sign-in link for the user, e-mailed as an invitation. */
  async reinvite(by: TeamActor, userId: string) {
    return inTransaction(this.db, async (trx) => {
      const row = await this.find(new IdentityRepository(trx), by.partnerId, userId);
      if (row.status === 'DEACTIVATED')
        throw new AppError('VALIDATION.INVALID', 'The user is deactivated: reactivate them first.', {
          issues: [{ path: 'params.userId', message: 'is deactivated' }],
        });
      const link = await this.identity.sendLink(trx, row, true);
      await this.audit(trx, by, 'user.invited', row.id, { email: row.email, reinvited: true });
      return { user: userView(row), link };
    });
  }

  async update(by: TeamActor, userId: string, input: { role?: UserRole; active?: boolean; name?: string | null }) {
    return inTransaction(this.db, async (trx) => {
      const repo = new IdentityRepository(trx);
      const row = await this.find(repo, by.partnerId, userId);
      const demoted = input.role !== undefined && input.role !== 'ADMINISTRATOR';
      if (row.role === 'ADMINISTRATOR' && row.status !== 'DEACTIVATED' && (demoted || input.active === false))
        await this.keepAnAdministrator(repo, by.partnerId, row.id);
      const roleChanged = input.role !== undefined && input.role !== row.role;
      const deactivated = input.active === false && row.status !== 'DEACTIVATED';
      const reactivated = input.active === true && row.status === 'DEACTIVATED';
      const updated = await repo.updateUser(row.id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(deactivated ? { status: 'DEACTIVATED' as const } : {}),
        ...(reactivated ? { status: row.last_sign_in_at ? ('ACTIVE' as const) : ('INVITED' as const) } : {}),
      });
      if (roleChanged || deactivated) await repo.deleteSessions({ userId: row.id });
      await this.identity.sessionsChanged(trx, row.id);
      const changes = {
        ...(roleChanged ? { role: { from: row.role, to: input.role } } : {}),
        ...(deactivated ? { status: { from: row.status, to: 'DEACTIVATED' } } : {}),
        ...(reactivated ? { status: { from: row.status, to: updated!.status } } : {}),
        ...(input.name !== undefined && input.name !== row.name ? { name: { from: row.name, to: input.name } } : {}),
      };
      await this.audit(trx, by, 'user.updated', row.id, { email: row.email, changes });
      return userView(updated!);
    });
  }

  async remove(by: TeamActor, userId: string) {
    await inTransaction(this.db, async (trx) => {
      const repo = new IdentityRepository(trx);
      const row = await this.find(repo, by.partnerId, userId);
      if (row.role === 'ADMINISTRATOR' && row.status !== 'DEACTIVATED')
        await this.keepAnAdministrator(repo, by.partnerId, row.id);
      // Sessions go with the user (ON DELETE CASCADE), in this transaction.
      await repo.deleteUser(row.id);
      await this.identity.sessionsChanged(trx, row.id);
      await this.audit(trx, by, 'user.removed', row.id, { email: row.email, role: row.role });
    });
  }

  private async keepAnAdministrator(repo: IdentityRepository, partnerId: string, userId: string) {
    const admins = await repo.activeAdministrators(partnerId);
    if (admins.filter((id) => id !== userId).length === 0) throw new AppError('USER.LAST_ADMINISTRATOR');
  }

  private async find(repo: IdentityRepository, partnerId: string, userId: string): Promise<UserRow> {
    const row = UUID.test(userId) ? await repo.findUser(partnerId, { id: userId }) : undefined;
    if (!row) throw notFound('user');
    return row;
  }
}
