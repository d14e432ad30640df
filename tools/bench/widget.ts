import { Client } from 'pg';
import { SAMPLE_ADDRESSES } from '@platform/geo';
import type { Scenario } from './load';

/** Properties the regime mix spreads its visitors over. */
const MIX_PROPERTIES = 200;

/**
 * Visitors' addresses in a realistic mix for a European-and-American shop: 45% EU (Berlin,
 * OPT_IN), 15% California and 10% Texas (OPT_OUT), 15% Brazil and 15% Japan (NOTICE_ONLY).
 * Sent only as X-Forwarded-For (the bench is the gateway's trusted proxy on loopback).
 */
const REGIME_MIX: string[] = [
  ...Array<string>(9).fill(SAMPLE_ADDRESSES.berlin),
  ...Array<string>(3).fill(SAMPLE_ADDRESSES.losAngeles),
  ...Array<string>(2).fill(SAMPLE_ADDRESSES.texas),
  ...Array<string>(3).fill(SAMPLE_ADDRESSES.saoPaulo),
  ...Array<string>(3).fill(SAMPLE_ADDRESSES.tokyo),
];

/** domains-svc's widget_settings_cache_total, by result, from its /metrics. */
async function cacheCounts(adminUrl: string): Promise<{ hit: number; miss: number }> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const count = (result: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith('widget_settings_cache_total{') && l.includes(`result="${result}"`))
        ?.split(' ')
        .pop() ?? 0,
    );
  return { hit: count('hit'), miss: count('miss') };
}

/**
 * The widget's public settings through the gateway with no API key, for one seeded property (its
 * hostname as the Origin), once the services' caches are warm: a first view (200 with the whole
 * settings) and a repeat view revalidating with its ETag (304, no body); and first views of
 * MIX_PROPERTIES properties by visitors of the regime mix, with domains-svc's settings cache hit rate.
 */
export async function widgetScenarios(
  databaseUrl: string,
  partnerId: string,
  gatewayUrl: string,
  domainsAdminUrl: string,
): Promise<Scenario[]> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ hostname: string; property_id: string }>(
      'SELECT hostname, property_id FROM domains.domains WHERE partner_id = $1 ORDER BY created_at LIMIT $2',
      [partnerId, MIX_PROPERTIES],
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
      {
        name: `widget settings regime mix (${rows.length} properties)`,
        url: gatewayUrl,
        headers: {},
        paths: rows.map((r) => `/widget/v1/properties/${r.property_id}/settings`),
        // Request n: property n mod P, visitor from the mix by n / P, so every property sees every region.
        headersFor: (n) => ({
          origin: `https://${rows[n % rows.length].hostname}`,
          'x-forwarded-for': REGIME_MIX[Math.floor(n / rows.length) % REGIME_MIX.length],
        }),
        observe: async () => {
          const before = await cacheCounts(domainsAdminUrl);
          return async () => {
            const after = await cacheCounts(domainsAdminUrl);
            const [hit, miss] = [after.hit - before.hit, after.miss - before.miss];
            return `settings cache (warm-up included): ${hit} hits, ${miss} misses, hit rate ${((100 * hit) / Math.max(1, hit + miss)).toFixed(1)}%`;
          };
        },
      },
    ];
  } finally {
    await c.end();
  }
}
