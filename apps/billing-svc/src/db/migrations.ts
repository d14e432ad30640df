import { sql, type Kysely } from '@platform/db';
import type { ServiceMigration } from '@platform/service';
import { SEED_CATALOGUE } from './seed-catalogue';

/** Forward-only migrations of the `billing` schema (the pool's search_path is the schema); the chassis adds its own tables. */
export const migrations: Record<string, ServiceMigration> = {
  '2026_11_22_0001_catalogue': {
    async up(db: Kysely<unknown>) {
      await sql`CREATE TABLE currencies (id text PRIMARY KEY, name text NOT NULL)`.execute(db);
      await sql`CREATE TABLE price_lists (id integer PRIMARY KEY, code text NOT NULL UNIQUE, type text NOT NULL)`.execute(
        db,
      );
      await sql`
        CREATE TABLE products (
          id integer PRIMARY KEY,
          code text NOT NULL UNIQUE,
          name text NOT NULL,
          type text NOT NULL,
          features text[] NOT NULL DEFAULT '{}'
        )`.execute(db);
      await sql`
        CREATE TABLE prices (
          id integer PRIMARY KEY,
          product_id integer NOT NULL REFERENCES products (id),
          price_list_id integer NOT NULL REFERENCES price_lists (id),
          frequency text NOT NULL,
          currency_id text NOT NULL REFERENCES currencies (id),
          amount numeric(12, 2) NOT NULL
        )`.execute(db);
      await sql`CREATE INDEX prices_product ON prices (product_id, id)`.execute(db);
      await seedCatalogue(db);
    },
  },
  '2026_11_22_0002_subscriptions': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE subscriptions (
          id uuid PRIMARY KEY,
          partner_id text NOT NULL,
          domain_id uuid NOT NULL,
          status text NOT NULL,
          product_id integer NOT NULL REFERENCES products (id),
          price_list_id integer NOT NULL REFERENCES price_lists (id),
          price_id integer NOT NULL REFERENCES prices (id),
          start_date timestamptz NOT NULL,
          end_date timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX subscriptions_domain ON subscriptions (partner_id, domain_id)`.execute(db);
    },
  },
};

/** The default catalogue every installation starts with (several products, price lists, currencies, monthly and yearly prices). */
async function seedCatalogue(db: Kysely<unknown>) {
  for (const product of SEED_CATALOGUE) {
    await sql`INSERT INTO products (id, code, name, type, features) VALUES (${product.id}, ${product.code}, ${product.name}, ${product.type}, ${product.features})`.execute(
      db,
    );
    for (const price of product.prices) {
      await sql`INSERT INTO currencies (id, name) VALUES (${price.currency.id}, ${price.currency.name}) ON CONFLICT DO NOTHING`.execute(
        db,
      );
      await sql`INSERT INTO price_lists (id, code, type) VALUES (${price.price_list.id}, ${price.price_list.code}, ${price.price_list.type}) ON CONFLICT DO NOTHING`.execute(
        db,
      );
      await sql`
        INSERT INTO prices (id, product_id, price_list_id, frequency, currency_id, amount)
        VALUES (${price.id}, ${product.id}, ${price.price_list.id}, ${price.frequency}, ${price.currency.id}, ${price.price_amount})`.execute(
        db,
      );
    }
  }
}
