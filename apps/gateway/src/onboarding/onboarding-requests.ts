import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUuid, ONBOARDING_WIDGET_OF, type RouteSpec } from '@platform/contracts';
import {
  AppError,
  answerPreflight,
  notFound,
  parseRequest,
  preflightMethod,
  sendResult,
  type HandlerResult,
} from '@platform/http';
import type { Logger } from '@platform/observability';
import type { OnboardingDomains } from './onboarding-domains';
import { onboardingHandlers, type OnboardingRoute, type WidgetCall } from './onboarding.handlers';
import type { OnboardingLimits } from './onboarding-limits';
import { guardWidget } from './widget-guard';
import type { WidgetPartners } from './widget-partners';

export interface OnboardingDeps {
  partners: WidgetPartners;
  domains: OnboardingDomains;
  limits: OnboardingLimits;
  /** Outside production: every answer is checked against its route's response schema. */
  checkAnswersWith?: Logger;
}

/** One widget call as the public path routed it. */
export interface OnboardingCall {
  spec: RouteSpec;
  params: Record<string, string>;
  ip: string;
  /** The request's JSON body (415 and 413 as on every public path). */
  readBody(): Promise<Buffer | undefined>;
}

export type OnboardingRequests = (req: IncomingMessage, res: ServerResponse, call: OnboardingCall) => Promise<void>;

type AnyHandler = (call: WidgetCall<OnboardingRoute>) => Promise<HandlerResult<OnboardingRoute>>;

const operationOf = (spec: RouteSpec) => spec.operationId as OnboardingRoute['operationId'];

/** The raw body as JSON: 400 VALIDATION.MALFORMED_JSON when it is not. */
function jsonOf(body: Buffer | undefined): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new AppError('VALIDATION.MALFORMED_JSON');
  }
}

/**
 * The onboarding widgets' public calls, answered by the gateway: the partner (404 for none) ->
 * its widget's Origin rule and switch (guardWidget; a preflight is answered here) -> the body,
 * validated with the route's schemas -> the handler -> the answer, as a service sends it.
 * Errors are thrown to the public path's handler, with the CORS headers already set.
 */
export function onboardingRequests(deps: OnboardingDeps): OnboardingRequests {
  const handlers = onboardingHandlers(deps) as unknown as Record<string, AnyHandler>;
  return async (req, res, call) => {
    const { spec } = call;
    const partnerId = call.params.partnerId;
    // Partner ids are UUIDs: anything else is no such partner, and no query is made for it.
    if (partnerId === undefined || !isUuid(partnerId)) throw notFound('partner');
    const partner = await deps.partners.find(partnerId.toLowerCase());
    if (!partner) throw notFound('partner');
    const widget = ONBOARDING_WIDGET_OF[operationOf(spec)];
    if (widget) guardWidget(res, partner.widgets[widget], req.headers.origin);
    const preflight = preflightMethod(req);
    if (preflight) return answerPreflight(res, preflight);
    const parsed = parseRequest(
      { params: call.params, query: {}, body: jsonOf(await call.readBody()) },
      { params: spec.params, body: spec.body },
    );
    const handler = handlers[spec.operationId];
    if (!handler) throw new AppError('ROUTE.NOT_FOUND');
    const params = parsed.params as WidgetCall<OnboardingRoute>['params'];
    const result = await handler({ params, body: parsed.body as never, partner, ip: call.ip });
    sendResult(res, spec, result, deps.checkAnswersWith);
  };
}
