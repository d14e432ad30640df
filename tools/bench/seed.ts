import { Client } from 'pg';

/**
 * Seeds domains straight into domains-svc's schema with SQL (not through the API): one company
 * and one property per domain, statuses and widget flags spread so filters select real subsets.
 */
export async function seedDomains(
  databaseUrl: string,
  partnerIds: string[],
  perPartner: number,
  tag = 'p',
): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (const [p, partnerId] of partnerIds.entries()) {
      const params = [partnerId, perPartner, `${tag}${p}`];
      await db.query(
        `INSERT INTO domains.companies (id, partner_id, name, email, owner_id, owner_email, created_at, updated_at)
         SELECT md5($3 || 'c' || g)::uuid, $1, 'Company ' || g, 'owner' || g || '@example.com', md5($3 || 'o' || g)::uuid,
                'owner' || g || '@example.com', now() - g * interval '1 minute', now() - g * interval '1 minute'
         FROM generate_series(1, $2::int) g`,
        params,
      );
      await db.query(
        `INSERT INTO domains.properties (id, partner_id, company_id, name, has_scripts, has_dsar, has_docs, has_accessibility,
                                         display_dpo, display_company, default_notice_type, created_at, updated_at)
         SELECT md5($3 || 'p' || g)::uuid, $1, md5($3 || 'c' || g)::uuid, 'https://site' || g || '.' || $3 || '.example.com',
                g % 4 <> 0, g % 3 <> 0, true, g % 2 = 0, true, true, 'CLASSIC', now() - g * interval '1 minute', now() - g * interval '1 minute'
         FROM generate_series(1, $2::int) g`,
        params,
      );
      await db.query(
        `INSERT INTO domains.domains (id, partner_id, company_id, property_id, hostname, status, is_active, source, action,
                                      instance_id, widget_version, product_code, price_list_code, subscription_id, created_at, updated_at,
                                      product_id, price_list_id, price_id, subscription_status, subscription_start, merchants)
         SELECT md5($3 || 'd' || g)::uuid, $1, md5($3 || 'c' || g)::uuid, md5($3 || 'p' || g)::uuid, 'site' || g || '.' || $3 || '.example.com',
                (ARRAY['NEW','NEW','INVITED','ACTIVE','SCANNED','INACTIVE'])[g % 6 + 1], g % 6 <> 5, 'API', 'CREATE_SILENT',
                1, 1, 'FREE', 'STANDARD', md5($3 || 's' || g)::uuid, now() - g * interval '1 minute', now() - g * interval '1 minute',
                1, 1, 101, (ARRAY['ACTIVE','ACTIVE','ACTIVE','TRIAL','INACTIVE'])[g % 5 + 1], now() - g * interval '1 minute',
                -- One merchant per 50 domains: a merchant filter selects a real, small subset.
                ARRAY['merchant-' || (g % 2000)]
         FROM generate_series(1, $2::int) g`,
        params,
      );
      await db.query(
        `INSERT INTO domains.domain_merchants (partner_id, merchant_id, domain_id) SELECT partner_id, merchants[1], id FROM domains.domains WHERE partner_id = $1`,
        [partnerId],
      );
    }
    // What autovacuum does to a live table: statistics, and the visibility map index-only scans need.
    await db.query('VACUUM ANALYZE domains.companies, domains.properties, domains.domains, domains.domain_merchants');
  } finally {
    await db.end();
  }
}

/** Some domain ids of a partner, for single-read scenarios. */
export async function sampleDomainIds(databaseUrl: string, partnerId: string, count: number): Promise<string[]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM domains.domains WHERE partner_id = $1 AND is_active ORDER BY random() LIMIT $2',
      [partnerId, count],
    );
    return rows.map((r) => r.id);
  } finally {
    await db.end();
  }
}
