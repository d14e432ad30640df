import type { Insertable, Selectable, Updateable } from 'kysely';
import { sql, type Kysely } from '@platform/db';
import type { GatewayDb, OwnerUsersTable } from '../db/tables';

export type AccessUserRow = Selectable<OwnerUsersTable>;

/** Which customer account: the partner and its company. Every read and write is scoped by both. */
export interface CustomerAccount {
  partnerId: string;
  companyId: string;
}

type CustomerAccountColumns = { partner_id: string; company_id: string; email: string };

/** All SQL on owner_users (the customer's access users). */
export class AccessUsersRepository {
  constructor(private readonly db: Kysely<GatewayDb>) {}

  private users(account: CustomerAccount) {
    return this.db
      .selectFrom('owner_users')
      .selectAll()
      .where('partner_id', '=', account.partnerId)
      .where('company_id', '=', account.companyId);
  }

  list(account: CustomerAccount, offset: number, limit: number): Promise<AccessUserRow[]> {
    return this.users(account).orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute();
  }

  find(account: CustomerAccount, which: { id: string } | { email: string }): Promise<AccessUserRow | undefined> {
    const query = this.users(account);
    return ('id' in which ? query.where('id', '=', which.id) : query.where('email', '=', which.email))
      .forUpdate()
      .executeTakeFirst();
  }

  /**
   * Locks the account's OWNERs with access (in id order, so two transactions never wait on each
   * other crosswise) and answers their ids. Taken before the row a change touches: of two
   * concurrent demotions of the last two OWNERs, the second sees the first's effect once it commits.
   */
  async lockOwners(account: CustomerAccount): Promise<string[]> {
    const rows = await this.db
      .selectFrom('owner_users')
      .select('id')
      .where('partner_id', '=', account.partnerId)
      .where('company_id', '=', account.companyId)
      .where('role', '=', 'OWNER')
      .where('access', '=', true)
      .orderBy('id')
      .forUpdate()
      .execute();
    return rows.map((r) => r.id);
  }

  insert(values: Insertable<OwnerUsersTable>): Promise<AccessUserRow> {
    return this.db.insertInto('owner_users').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Inserts the user unless the account has one with that address; answers the account's user with it either way. */
  async insertIfAbsent(values: Insertable<OwnerUsersTable> & CustomerAccountColumns): Promise<AccessUserRow> {
    const inserted = await this.db
      .insertInto('owner_users')
      .values(values)
      .onConflict((oc) => oc.columns(['partner_id', 'company_id', 'email']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return inserted;
    const account = { partnerId: values.partner_id, companyId: values.company_id };
    const row = await this.find(account, { email: values.email });
    if (!row) throw new Error('owner user neither inserted nor found');
    return row;
  }

  /** Inserts the user, or (same address in the account) changes the given fields; answers the row and whether it is new. */
  async upsert(
    values: Insertable<OwnerUsersTable>,
    changes: Updateable<OwnerUsersTable>,
  ): Promise<{ row: AccessUserRow; created: boolean }> {
    const row = await this.db
      .insertInto('owner_users')
      .values(values)
      .onConflict((oc) => oc.columns(['partner_id', 'company_id', 'email']).doUpdateSet(changes))
      .returningAll()
      .returning(sql<boolean>`(xmax = 0)`.as('created')) // a row the INSERT made, not the UPDATE
      .executeTakeFirstOrThrow();
    const { created, ...user } = row as AccessUserRow & { created: boolean };
    return { row: user, created };
  }

  update(id: string, values: Updateable<OwnerUsersTable>): Promise<AccessUserRow> {
    return this.db.updateTable('owner_users').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async delete(id: string) {
    await this.db.deleteFrom('owner_users').where('id', '=', id).execute();
  }
}
