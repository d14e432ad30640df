import { Client } from 'pg';
import type { Scenario } from './load';

/**
 * The widget's public settings through the gateway with no API key, for one seeded property (its
 * hostname as the Origin), once the services' caches are warm: a first view (200 with the whole
 * settings) and a repeat view revalidating with its ETag (304, no body).
 */
export async function widgetScenarios(databaseUrl: string, partnerId: string, gatewayUrl: string): Promise<Scenario[]> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ hostname: string; property_id: string }>(
      'SELECT hostname, property_id FROM domains.domains WHERE partner_id = $1 ORDER BY created_at LIMIT 1',
      [partnerId],
    );
    const { hostname, property_id: propertyId } = rows[0];
    const path = `/widget/v1/properties/${propertyId}/settings`;
    const origin = `https://${hostname}`;
    const first = await fetch(`${gatewayUrl}${path}`, { headers: { origin } });
    if (first.status !== 200) throw new Error(`widget settings answered ${first.status}: ${await first.text()}`);
    const etag = first.headers.get('etag') ?? '';
    return [
      { name: 'widget settings (no key, warm)', url: gatewayUrl, headers: { origin }, paths: [path] },
      // autocannon counts a 304 as non-2xx: this row's non-2xx is expected to equal its requests.
      {
        name: 'widget settings revalidated (304)',
        url: gatewayUrl,
        headers: { origin, 'if-none-match': etag },
        paths: [path],
      },
    ];
  } finally {
    await c.end();
  }
}
