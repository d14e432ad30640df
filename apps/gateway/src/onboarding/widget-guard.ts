import type { ServerResponse } from 'node:http';
import type { OnboardingWidgetSettings } from '@platform/contracts';
import { AppError, corsHeadersFor } from '@platform/http';

/**
 * Whether a page's Origin header is one of the widget's allowed origins: exactly, as a browser
 * serialises it (scheme://host[:port]); no Origin, "null", a look-alike or a sibling host is not.
 */
export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[]): origin is string {
  if (!origin || !allowed.includes(origin)) return false;
  try {
    return new URL(origin).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The rule of a widget's call, before its body is read: 403 WIDGET.ORIGIN_NOT_ALLOWED (no CORS
 * headers: the page learns nothing) unless the Origin is allowed; then the CORS headers for that
 * origin alone are set, and a widget the partner has off is 403 WIDGET.DISABLED (readable by the page).
 */
export function guardWidget(res: ServerResponse, settings: OnboardingWidgetSettings, origin: string | undefined): void {
  if (!isAllowedOrigin(origin, settings.allowed_origins)) throw new AppError('WIDGET.ORIGIN_NOT_ALLOWED');
  const cors = corsHeadersFor(origin);
  for (const name in cors) res.setHeader(name, cors[name]);
  if (!settings.enabled) throw new AppError('WIDGET.DISABLED');
}
