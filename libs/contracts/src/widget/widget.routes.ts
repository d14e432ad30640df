import { resultOf } from '../common';
import { defineRoute } from '../routes';
import {
  widgetPropertyParamsSchema,
  widgetSettingsQuerySchema,
  widgetSettingsSchema,
  widgetViewAcceptedSchema,
  widgetViewBodySchema,
} from './widget.schema';

const WIDGET = 'Widget (public)';
const publicDomains = { service: 'domains', access: 'public' } as const;

/** The widget's public calls served by domains-svc (no API key; Origin must be on the property's hostname). */
export const widgetRoutes = [
  defineRoute({
    ...publicDomains,
    operationId: 'getWidgetSettings',
    method: 'get',
    path: '/widget/v1/properties/{propertyId}/settings',
    tag: WIDGET,
    summary: "A property's public widget settings",
    description:
      "No API key. Answers only to an Origin on the property's hostname or a subdomain (403 WIDGET.ORIGIN_NOT_ALLOWED otherwise). " +
      'Carries an ETag and Cache-Control: no-cache; If-None-Match with the current ETag answers 304 with no body. ' +
      "`lang` picks the language (categories' texts and the property's text overrides in it; `language` names it): " +
      'in the URL, not Accept-Language, so every language is its own cache entry and no Vary is needed.',
    params: widgetPropertyParamsSchema,
    query: widgetSettingsQuerySchema,
    response: resultOf(widgetSettingsSchema),
    errors: ['RESOURCE.NOT_FOUND', 'WIDGET.ORIGIN_NOT_ALLOWED', 'RATE.LIMITED'],
  }),
  defineRoute({
    ...publicDomains,
    operationId: 'recordWidgetView',
    method: 'post',
    path: '/widget/v1/properties/{propertyId}/views',
    tag: WIDGET,
    summary: 'A page view of the widget',
    description:
      "No API key. The body's url must be an http(s) URL on the property's hostname or a subdomain (400 VALIDATION.INVALID otherwise). " +
      "The first view from the property's hostname (or a subdomain) makes its domain ACTIVE from NEW, SCANNED or INVITED, " +
      'sets activated_at once and emits property.activated once; a view of an ACTIVE or INACTIVE domain changes nothing.',
    params: widgetPropertyParamsSchema,
    body: widgetViewBodySchema,
    response: resultOf(widgetViewAcceptedSchema),
    status: 202,
    errors: [
      'RESOURCE.NOT_FOUND',
      'WIDGET.ORIGIN_NOT_ALLOWED',
      'RATE.LIMITED',
      'VALIDATION.INVALID',
      'VALIDATION.MALFORMED_JSON',
      'REQUEST.UNSUPPORTED_MEDIA_TYPE',
      'REQUEST.TOO_LARGE',
    ],
  }),
];
