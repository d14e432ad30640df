import type { widgetRoutes } from '@platform/contracts';
import { regimeOf, type GeoIp } from '@platform/geo';
import { reply, type Handlers } from '@platform/http';
import type { InternalCaller } from '@platform/auth';
import type { DomainsContext } from '../context';
import type { WidgetSettingsCache } from './settings-cache';
import { matchesEtag } from './widget-settings.service';
import { recordWidgetView } from './widget-views.service';

/**
 * The answer depends on the visitor's address (the regime), which no request header names: private
 * keeps shared caches (CDNs, proxies keyed by URL and Vary) from serving one region's answer to
 * another; no-cache makes the browser revalidate (If-None-Match -> 304 while its regime's ETag holds).
 */
const SETTINGS_CACHE_CONTROL = 'private, no-cache';

export interface WidgetDeps {
  geo: GeoIp;
  settings: WidgetSettingsCache;
}

/** The widget's public calls; the chassis has already checked the property exists and the Origin is on its hostname. */
export function widgetHandlers(
  ctx: DomainsContext,
  deps: WidgetDeps,
): Handlers<(typeof widgetRoutes)[number], InternalCaller> {
  return {
    // caller.clientIp: the visitor's address as the gateway forwarded it (looked up for the regime, never stored).
    // The language is in the URL (?lang=), so each language's answer is cached on its own URL.
    getWidgetSettings: async ({ params, query, req, caller }) => {
      const ofPlace = regimeOf(deps.geo.lookup(caller.clientIp));
      const { body, etag } = await deps.settings.answer(ctx, params.propertyId.toLowerCase(), ofPlace, query.lang);
      const headers = { ETag: etag, 'Cache-Control': SETTINGS_CACHE_CONTROL };
      if (matchesEtag(req.headers['if-none-match'], etag)) return reply(304, undefined, headers);
      return reply(200, body, headers);
    },
    recordWidgetView: async ({ params, body }) => {
      await recordWidgetView(ctx, params.propertyId.toLowerCase(), body.url);
      return reply(202, { result: { accepted: true as const } });
    },
  };
}
