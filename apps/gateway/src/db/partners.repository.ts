import type { Kysely } from '@platform/db';
import type { GatewayDb } from './tables';

export interface PartnerRow {
  id: string;
  name: string;
  required_fields: string[];
  created_at: Date;
}

/** All SQL on gateway.partners. */
export class PartnersRepository {
  constructor(private readonly db: Kysely<GatewayDb>) {}

  insert(values: { name: string; required_fields: string[] }): Promise<PartnerRow> {
    return this.db.insertInto('partners').values(values).returningAll().executeTakeFirstOrThrow();
  }

  list(): Promise<PartnerRow[]> {
    return this.db.selectFrom('partners').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  findById(id: string): Promise<PartnerRow | undefined> {
    return this.db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
