import { z } from 'zod';
import { resultOf } from '../common';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  confirmRegistrationBodySchema,
  onboardingConfigSchema,
  onboardingPartnerParamsSchema,
  onboardingPartnerSchema,
  registeredSiteSchema,
  registrationBodySchema,
  registrationConfirmedSchema,
  registrationSentSchema,
  widgetScanAcceptedSchema,
  widgetScanBodySchema,
  widgetScanParamsSchema,
  widgetScanViewSchema,
  type OnboardingWidget,
} from './onboarding.schema';

const TAG = 'Onboarding widgets (public)';
/** Answered by the gateway (it owns the partner's widget settings), which asks domains-svc for the rest. */
const onboarding = { service: 'gateway', access: 'public', tag: TAG } as const;
const ORIGIN =
  "No API key. Answers only to a page whose Origin is one of the widget's allowed_origins (403 WIDGET.ORIGIN_NOT_ALLOWED otherwise), " +
  'with CORS headers for that origin alone; 403 WIDGET.DISABLED while the partner has the widget off; 404 for no such partner.';
const GUARD_ERRORS = ['RESOURCE.NOT_FOUND', 'WIDGET.ORIGIN_NOT_ALLOWED', 'WIDGET.DISABLED', 'RATE.LIMITED'] as const;
const BASE = '/widget/v1/onboarding/{partnerId}';

/** The registration and scan widgets' public calls (see docs/onboarding-widgets.md). */
export const onboardingRoutes = [
  defineRoute({
    ...onboarding,
    operationId: 'getRegistrationWidgetConfig',
    method: 'get',
    path: `${BASE}/registration`,
    summary: "The registration widget's look: the partner's name and colour, and the fields it requires",
    description: ORIGIN,
    params: onboardingPartnerParamsSchema,
    response: resultOf(onboardingConfigSchema),
    errors: [...GUARD_ERRORS],
  }),
  defineRoute({
    ...onboarding,
    operationId: 'createRegistration',
    method: 'post',
    path: `${BASE}/registrations`,
    summary: 'A customer registers a website: a confirmation link is e-mailed',
    description:
      `${ORIGIN} The fields follow the create-domain body's rules and the partner's required fields. Nothing is created ` +
      'until the link is opened (valid 24 hours): then the domain is created with source WIDGET_REGISTRATION. ' +
      'A hostname the partner has already is 409 DOMAIN.ALREADY_EXISTS; too many links to one address, 429.',
    params: onboardingPartnerParamsSchema,
    body: registrationBodySchema,
    response: resultOf(registrationSentSchema),
    status: 202,
    errors: [...BODY_ERRORS, ...GUARD_ERRORS, 'DOMAIN.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...onboarding,
    operationId: 'confirmRegistration',
    method: 'post',
    path: `${BASE}/registrations/confirm`,
    summary: 'The e-mailed link is opened: the website is registered (once, however often it is opened)',
    description:
      'No API key, no Origin rule (the token is the proof). An unknown or expired token is 404 REGISTRATION.LINK_INVALID; ' +
      'a hostname the partner registered meanwhile, 409 DOMAIN.ALREADY_EXISTS.',
    params: onboardingPartnerParamsSchema,
    body: confirmRegistrationBodySchema,
    response: resultOf(registrationConfirmedSchema),
    errors: [
      ...BODY_ERRORS,
      'RESOURCE.NOT_FOUND',
      'REGISTRATION.LINK_INVALID',
      'DOMAIN.ALREADY_EXISTS',
      'RATE.LIMITED',
    ],
  }),
  defineRoute({
    ...onboarding,
    operationId: 'getScanWidgetConfig',
    method: 'get',
    path: `${BASE}/scan`,
    summary: "The scan widget's look: the partner's name and colour",
    description: ORIGIN,
    params: onboardingPartnerParamsSchema,
    response: resultOf(onboardingConfigSchema),
    errors: [...GUARD_ERRORS],
  }),
  defineRoute({
    ...onboarding,
    operationId: 'createWidgetScan',
    method: 'post',
    path: `${BASE}/scans`,
    summary: 'A visitor scans a website; the report is e-mailed',
    description:
      `${ORIGIN} The partner gets the site as a lead: a domain with source WIDGET_SCAN (unless it has it already), ` +
      'SCANNED once the scan completes. Rate limited per partner, per client address and per scanned hostname (429 with Retry-After).',
    params: onboardingPartnerParamsSchema,
    body: widgetScanBodySchema,
    response: resultOf(widgetScanAcceptedSchema),
    status: 202,
    errors: [...BODY_ERRORS, ...GUARD_ERRORS],
  }),
  defineRoute({
    ...onboarding,
    operationId: 'getWidgetScan',
    method: 'get',
    path: `${BASE}/scans/{scanToken}`,
    summary: "A widget scan's status, and its summary once completed",
    description: ORIGIN,
    params: widgetScanParamsSchema,
    response: resultOf(widgetScanViewSchema),
    errors: [...GUARD_ERRORS],
  }),
];

/** Which widget's settings (on, origins) each public operation obeys; null: none (the confirmation link). */
export const ONBOARDING_WIDGET_OF: Record<(typeof onboardingRoutes)[number]['operationId'], OnboardingWidget | null> = {
  getRegistrationWidgetConfig: 'registration',
  createRegistration: 'registration',
  confirmRegistration: null,
  getScanWidgetConfig: 'scan',
  createWidgetScan: 'scan',
  getWidgetScan: 'scan',
};

const internal = { service: 'domains', internalCaller: 'gateway', tag: 'Internal' } as const;
const partner = { partner: onboardingPartnerSchema };

/** The gateway's calls to domains-svc for the widgets, naming the partner and its onboarding settings. */
export const onboardingInternalRoutes = [
  defineRoute({
    ...internal,
    permission: 'domains:write',
    operationId: 'storeRegistration',
    method: 'post',
    path: '/internal/onboarding/registrations',
    summary: 'Keep a registration until its e-mailed link is opened, and send the link',
    body: z.object({ ...partner, registration: registrationBodySchema }),
    response: resultOf(registrationSentSchema),
    status: 202,
    errors: [...BODY_ERRORS, 'DOMAIN.ALREADY_EXISTS', 'RATE.LIMITED'],
  }),
  defineRoute({
    ...internal,
    permission: 'domains:write',
    operationId: 'redeemRegistration',
    method: 'post',
    path: '/internal/onboarding/registrations/confirm',
    summary: "Create the registration's domain (once)",
    body: z.object({ ...partner, token: confirmRegistrationBodySchema.shape.token }),
    response: resultOf(registeredSiteSchema),
    errors: [...BODY_ERRORS, 'REGISTRATION.LINK_INVALID', 'DOMAIN.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...internal,
    permission: 'domains:write',
    operationId: 'startWidgetScan',
    method: 'post',
    path: '/internal/onboarding/scans',
    summary: "Scan a site for the scan widget (creating the partner's lead domain if needed)",
    body: z.object({ ...partner, scan: widgetScanBodySchema }),
    response: resultOf(widgetScanAcceptedSchema),
    status: 202,
    errors: [...BODY_ERRORS],
  }),
  defineRoute({
    ...internal,
    permission: 'domains:read',
    operationId: 'readWidgetScan',
    method: 'get',
    path: '/internal/onboarding/partners/{partnerId}/scans/{scanToken}',
    summary: 'A widget scan by its token',
    params: widgetScanParamsSchema,
    response: resultOf(widgetScanViewSchema),
    errors: ['RESOURCE.NOT_FOUND'],
  }),
] satisfies RouteSpec[];
