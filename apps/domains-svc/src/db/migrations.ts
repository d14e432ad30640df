import { sql, type Kysely } from '@platform/db';
import { createMailQueueRecipientIndex, createMailQueueTable } from '@platform/mail';
import type { ServiceMigration } from '@platform/service';
import { addCompanyDpo } from './company-dpo.migration';
import { addConsentMaxAge } from './consent-max-age.migration';
import { addTextOverrides } from './text-overrides.migration';
import { addPropertyRegime } from './property-regime.migration';
import { createEmailTemplateTables } from './email-templates.migration';
import { addInvitedAt } from './invited-at.migration';
import { importMigrations } from './imports.migration';
import { onboardingMigrations } from './onboarding.migration';

/**
 * Forward-only migrations of the `domains` schema (the pool's search_path is the schema); the
 * chassis adds its own tables (this list named them itself before, see chassisMigrations).
 */
export const migrations: Record<string, ServiceMigration> = {
  '2026_01_01_0002_domains': {
    async up(db: Kysely<unknown>) {
      await createCompanies(db);
      await createProperties(db);
      await createDomains(db);
      await createSubdomains(db);
      await createMailQueueTable(db);
    },
  },
  '2026_11_22_0002_hostname_search': {
    // search=<text> is a substring match on hostname: a trigram index serves it at any size.
    // The extension lives in public so every service's schema can use it.
    async up(db: Kysely<unknown>) {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
      await sql`CREATE INDEX domains_hostname_trgm ON domains USING gin (hostname public.gin_trgm_ops)`.execute(db);
    },
  },
  '2026_11_22_0005_subscription_projection': {
    // The domain's subscription as billing-svc reports it (subscription.changed), and the catalogue
    // billing-svc serves, kept so creates and reads work while billing-svc is away.
    async up(db: Kysely<unknown>) {
      await sql`
        ALTER TABLE domains
          ADD COLUMN product_id integer,
          ADD COLUMN price_list_id integer,
          ADD COLUMN price_id integer,
          ADD COLUMN subscription_status text,
          ADD COLUMN subscription_start timestamptz,
          ADD COLUMN subscription_end timestamptz`.execute(db);
      await sql`CREATE INDEX domains_partner_subscription ON domains (partner_id, subscription_status, created_at DESC, id DESC)`.execute(
        db,
      );
      await sql`CREATE INDEX domains_partner_product ON domains (partner_id, product_id, created_at DESC, id DESC)`.execute(
        db,
      );
      await sql`
        CREATE TABLE catalogue_snapshot (
          id integer PRIMARY KEY CHECK (id = 1),
          products jsonb NOT NULL,
          fetched_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
  '2026_11_23_0001_domain_merchants': {
    // The merchant filter with a btree per (partner, merchant): a GIN index on the array gave
    // generic plans a BitmapAnd with every row of the partner's status (14 ms instead of 0.5 ms).
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE domain_merchants (
          partner_id text NOT NULL,
          merchant_id text NOT NULL,
          domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
          PRIMARY KEY (partner_id, merchant_id, domain_id)
        )`.execute(db);
      await sql`CREATE INDEX domain_merchants_domain ON domain_merchants (domain_id)`.execute(db);
      await sql`INSERT INTO domain_merchants (partner_id, merchant_id, domain_id) SELECT DISTINCT partner_id, unnest(merchants), id FROM domains`.execute(
        db,
      );
      await sql`DROP INDEX domains_merchants`.execute(db);
    },
  },
  '2026_11_24_0001_domain_merchant_refs': {
    // A link is to the merchant itself (merchants-svc's id), so a rename or delete carries to it.
    // Null until merchants-svc resolves the merchant_id the create named (merchant.changed).
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE domain_merchants ADD COLUMN merchant_ref uuid`.execute(db);
      await sql`CREATE INDEX domain_merchants_ref ON domain_merchants (merchant_ref)`.execute(db);
    },
  },
  '2026_11_24_0003_activation_reminders': {
    // One row per property and reminder day, written with the property: emitted_at marks the one
    // emission (the row lock and this column make it exactly once), cancelled_at a property that
    // was activated first. Pending rows are found per day by the creation time (day length is a
    // setting, so the due time is not stored). Properties not yet activated get theirs here.
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE activation_reminders (
          property_id uuid NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
          day integer NOT NULL,
          property_created_at timestamptz NOT NULL,
          emitted_at timestamptz,
          cancelled_at timestamptz,
          PRIMARY KEY (property_id, day)
        )`.execute(db);
      await sql`CREATE INDEX activation_reminders_pending ON activation_reminders (day, property_created_at) WHERE emitted_at IS NULL AND cancelled_at IS NULL`.execute(
        db,
      );
      await sql`
        INSERT INTO activation_reminders (property_id, day, property_created_at)
        SELECT d.property_id, r.day, p.created_at
        FROM domains d JOIN properties p ON p.id = d.property_id, UNNEST(ARRAY[2, 7, 14, 30]) AS r(day)
        WHERE d.status IN ('NEW', 'SCANNED', 'INVITED') AND d.activated_at IS NULL`.execute(db);
    },
  },
  '2026_11_24_0010_scans': {
    // The site scanner (DOMAINS_ROLE scanner): one row per scan, claimed by workers with a lease
    // (lease_until), so a killed worker's scan is taken up again. At most one queued or running
    // scan per domain (the partial unique index serialises them). The property keeps what the
    // latest completed scan found, as the widget shows it (cookies, data_collection).
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE scans (
          id uuid PRIMARY KEY,
          partner_id text NOT NULL,
          domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
          requested_by text NOT NULL,
          status text NOT NULL DEFAULT 'queued',
          mode text,
          attempts integer NOT NULL DEFAULT 0,
          due_at timestamptz NOT NULL DEFAULT now(),
          lease_until timestamptz,
          started_at timestamptz,
          finished_at timestamptz,
          pages jsonb NOT NULL DEFAULT '[]',
          findings jsonb,
          errors jsonb NOT NULL DEFAULT '[]',
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX scans_one_open ON scans (domain_id) WHERE status IN ('queued', 'running')`.execute(
        db,
      );
      await sql`CREATE INDEX scans_due ON scans (due_at) WHERE status IN ('queued', 'running')`.execute(db);
      await sql`CREATE INDEX scans_domain_latest ON scans (domain_id, created_at DESC)`.execute(db);
      await sql`
        ALTER TABLE properties
          ADD COLUMN scan_cookies jsonb NOT NULL DEFAULT '[]',
          ADD COLUMN scan_data_collection jsonb NOT NULL DEFAULT '[]'`.execute(db);
    },
  },
  '2026_11_26_0001_scans_queued_by_creates': {
    // A create now queues its scan itself; the release before published scan.requested to its own
    // consumer. Requests still in the outbox (kept 7 days) that no scan followed are queued here,
    // so a scan that was on its way at the upgrade is not lost.
    async up(db: Kysely<unknown>) {
      await sql`
        INSERT INTO scans (id, partner_id, domain_id, requested_by)
        SELECT gen_random_uuid(), d.partner_id, d.id,
               CASE WHEN o.message->'payload'->'params'->>'action' = 'SCAN_INVITE' THEN 'SCAN_INVITE' ELSE 'SCAN' END
        FROM outbox o JOIN domains d ON d.id::text = o.message->'payload'->'params'->>'domain_id'
        WHERE o.routing_key = 'scan.requested'
          AND NOT EXISTS (SELECT 1 FROM scans s WHERE s.domain_id = d.id AND s.created_at >= o.created_at)
        ON CONFLICT (domain_id) WHERE status IN ('queued', 'running') DO NOTHING`.execute(db);
    },
  },
  // The mail sender serves recipients in turns (claimDueMail): each one's last send, by index.
  '2026_11_26_0002_mail_queue_recipient': { up: (db: Kysely<unknown>) => createMailQueueRecipientIndex(db) },
  // The partners' own owner e-mail templates and names (see createEmailTemplateTables).
  '2026_11_26_0003_email_templates': { up: createEmailTemplateTables },
  // The Dashboard's funnel: when each domain was first invited (see invited-at.migration.ts).
  '2026_11_26_0004_domains_invited_at': { up: addInvitedAt },
  // Domain imports and their rows (see imports.migration.ts).
  ...importMigrations,
  // The onboarding widgets' registrations and scans (see onboarding.migration.ts).
  ...onboardingMigrations,
  // The customer's DPO (see company-dpo.migration.ts).
  '2026_12_01_0001_company_dpo': { up: addCompanyDpo },
  // How long a visitor's choice stands (see consent-max-age.migration.ts).
  '2026_12_02_0001_consent_max_age': { up: addConsentMaxAge },
  // The property's regime and Consent Mode switches (see property-regime.migration.ts).
  '2026_12_03_0001_property_regime': { up: addPropertyRegime },
  // The widget's default language and texts overridden per language (see text-overrides.migration.ts).
  '2026_12_03_0002_text_overrides': { up: addTextOverrides },
};

/** 2026_01_01_0002_domains: companies, which a domain and its property belong to. */
async function createCompanies(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE companies (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      name text NOT NULL,
      trade_name text,
      id_number text,
      email text NOT NULL,
      vat_number text,
      registration_number text,
      country text,
      state text,
      city text,
      address text,
      address_2 text,
      postal_code text,
      phone_number text,
      owner_id uuid NOT NULL,
      owner_email text NOT NULL,
      owner_first_name text,
      owner_last_name text,
      criterias text[] NOT NULL DEFAULT '{}',
      sector_id text,
      industry_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // company_setup=false reuses the partner's company by name.
  await sql`CREATE INDEX companies_partner_name ON companies (partner_id, name, created_at)`.execute(db);
}

/** 2026_01_01_0002_domains: properties: a domain's widget settings. */
async function createProperties(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE properties (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      company_id uuid NOT NULL REFERENCES companies (id),
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'NEW',
      widget_font text NOT NULL DEFAULT 'Inter',
      widget_position text NOT NULL DEFAULT 'BOTTOM_LEFT',
      border_radius text NOT NULL DEFAULT '8px',
      primary_color text NOT NULL DEFAULT '#1a73e8',
      text_color text NOT NULL DEFAULT '#ffffff',
      has_scripts boolean NOT NULL,
      has_dsar boolean NOT NULL,
      has_docs boolean NOT NULL,
      has_accessibility boolean NOT NULL,
      has_accessibility_icon boolean NOT NULL DEFAULT true,
      display_dpo boolean NOT NULL,
      display_company boolean NOT NULL,
      has_welcome_message boolean NOT NULL DEFAULT false,
      has_continuous_scanning boolean NOT NULL DEFAULT false,
      has_vendor_logo boolean NOT NULL DEFAULT true,
      default_notice_type text NOT NULL,
      activated_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX properties_company ON properties (company_id)`.execute(db);
}

/** 2026_01_01_0002_domains: domains and the indexes of their lists. */
async function createDomains(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE domains (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      company_id uuid NOT NULL REFERENCES companies (id),
      property_id uuid NOT NULL UNIQUE REFERENCES properties (id),
      hostname text NOT NULL,
      status text NOT NULL,
      is_active boolean NOT NULL,
      source text NOT NULL,
      action text NOT NULL,
      instance_id integer NOT NULL,
      widget_version integer NOT NULL,
      merchants text[] NOT NULL DEFAULT '{}',
      referral_partner_id text,
      product_code text NOT NULL,
      price_list_code text NOT NULL,
      subscription_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      activated_at timestamptz,
      CONSTRAINT domains_partner_hostname_key UNIQUE (partner_id, hostname)
    )`.execute(db);
  // Every list query has partner + is_active equality (INACTIVE only when asked) and this order.
  await sql`CREATE INDEX domains_partner_list ON domains (partner_id, is_active, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX domains_company ON domains (company_id)`.execute(db);
  await sql`CREATE INDEX domains_merchants ON domains USING gin (merchants)`.execute(db);
  await sql`CREATE INDEX domains_partner_status ON domains (partner_id, status, created_at DESC, id DESC)`.execute(db);
}

/** 2026_01_01_0002_domains: subdomains, deleted with their domain. */
async function createSubdomains(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE subdomains (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
      hostname text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT subdomains_domain_hostname_key UNIQUE (domain_id, hostname)
    )`.execute(db);
}
