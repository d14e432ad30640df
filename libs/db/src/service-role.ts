import { sql, type Kysely } from 'kysely';

// The name goes into a DO block body and a startup option, where it cannot be a bound parameter.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,58}$/;

/** The database role a service runs as at runtime: it can touch only its own schema. */
export function serviceRoleName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema name ${JSON.stringify(schema)} cannot name a service role`);
  return `svc_${schema}`;
}

/** The pg startup option that makes every connection of a pool run as the service's role. */
export const serviceRoleOption = (schema: string) => `-c role=${serviceRoleName(schema)}`;

/** The same URL, its connections running as the service's role (for clients built from a URL, e.g. LISTEN). */
export function serviceRoleUrl(url: string, schema: string): string {
  const u = new URL(url);
  const options = u.searchParams.get('options');
  u.searchParams.set('options', options ? `${options} ${serviceRoleOption(schema)}` : serviceRoleOption(schema));
  return u.toString();
}

/**
 * Ensures `svc_<schema>` exists and may use exactly the schema's tables and sequences, present and
 * future (those the connecting admin creates). Run by the admin connection after the migrations.
 * Idempotent and safe to run from several processes at once.
 */
export async function ensureServiceRole(db: Kysely<unknown>, schema: string): Promise<string> {
  const role = serviceRoleName(schema);
  const r = sql.id(role);
  const s = sql.id(schema);
  await db.transaction().execute(async (trx) => {
    // Concurrent GRANTs on the same objects fail with "tuple concurrently updated": serialise them
    // per database (advisory locks are per database; roles are not, hence the tolerant CREATE).
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`service-role:${schema}`}))`.execute(trx);
    await sql`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${sql.raw(role)}') THEN
          CREATE ROLE ${r} NOLOGIN;
        END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END $$`.execute(trx);
    await sql`GRANT USAGE ON SCHEMA ${s} TO ${r}`.execute(trx);
    await sql`GRANT ALL ON ALL TABLES IN SCHEMA ${s} TO ${r}`.execute(trx);
    await sql`GRANT ALL ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`.execute(trx);
    await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT ALL ON TABLES TO ${r}`.execute(trx);
    await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT ALL ON SEQUENCES TO ${r}`.execute(trx);
    const { rows } = await sql<{
      rolsuper: boolean;
    }>`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`.execute(trx);
    // A superuser may take any role already; granting would write the global catalog on every boot
    // (and parallel processes would race on it).
    if (!rows[0]?.rolsuper) {
      await sql`
        DO $$ BEGIN
          GRANT ${r} TO CURRENT_USER;
        EXCEPTION WHEN unique_violation THEN NULL;
        END $$`.execute(trx);
    }
  });
  return role;
}
