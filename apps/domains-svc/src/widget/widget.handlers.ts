import type { widgetRoutes } from '@platform/contracts';
import { reply, type Handlers } from '@platform/http';
import type { InternalCaller } from '@platform/auth';
import type { DomainsContext } from '../context';
import { matchesEtag, widgetSettings } from './widget-settings.service';
import { recordWidgetView } from './widget-views.service';

/** A repeat view may keep the settings but must ask again (If-None-Match -> 304 when unchanged). */
const SETTINGS_CACHE_CONTROL = 'no-cache';

/** The widget's public calls; the chassis has already checked the property exists and the Origin is on its hostname. */
export function widgetHandlers(ctx: DomainsContext): Handlers<(typeof widgetRoutes)[number], InternalCaller> {
  return {
    getWidgetSettings: async ({ params, query, req }) => {
      // The language is in the URL (?lang=), so each language's answer is cached on its own URL.
      const { body, etag } = await widgetSettings(ctx, params.propertyId.toLowerCase(), query.lang);
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
