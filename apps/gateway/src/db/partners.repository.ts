import type { Kysely } from '@platform/db';
import type { GatewayDb } from './tables';

export interface PartnerRow {
  id: string;
  name: string;
  required_fields: string[];
  default_product: string | null;
  default_price_list: string | null;
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

  update(
    id: string,
    values: { required_fields?: string[]; default_product?: string | null; default_price_list?: string | null },
  ): Promise<PartnerRow | undefined> {
    return this.db.updateTable('partners').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  findById(id: string): Promise<PartnerRow | undefined> {
    return this.db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
