import { z } from 'zod';
import { resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  emailPreviewSchema,
  emailTemplateBodySchema,
  emailTemplateParamsSchema,
  emailTemplateSchema,
  emailTestSendSchema,
} from './email-templates.schema';

const TAG = 'E-mail templates';
const read = { service: 'domains', permission: 'templates:read', userOnly: true, tag: TAG } as const;
const write = { service: 'domains', permission: 'templates:write', userOnly: true, tag: TAG } as const;
// VALIDATION.INVALID: a kind that is not one of the four.
const byKind: ErrorCode[] = ['AUTH.FORBIDDEN', 'VALIDATION.INVALID'];

/** The owner e-mails a partner words themselves (portal users only, not API keys). */
export const emailTemplateRoutes = [
  defineRoute({
    ...read,
    operationId: 'listEmailTemplates',
    method: 'get',
    path: '/portal/email-templates',
    summary: 'List the e-mail templates (the partner’s or the default) of every kind',
    description: 'INVITATION, INTRO, SCAN_REPORT and ACTIVATION_REMINDER, each with the variables it may use.',
    response: resultOf(z.array(emailTemplateSchema)),
    errors: ['AUTH.FORBIDDEN'],
  }),
  defineRoute({
    ...read,
    operationId: 'getEmailTemplate',
    method: 'get',
    path: '/portal/email-templates/{kind}',
    summary: 'Get the e-mail template of a kind',
    params: emailTemplateParamsSchema,
    response: resultOf(emailTemplateSchema),
    errors: byKind,
  }),
  defineRoute({
    ...write,
    operationId: 'putEmailTemplate',
    method: 'put',
    path: '/portal/email-templates/{kind}',
    summary: 'Customize the e-mail template of a kind',
    description:
      'Liquid templates. Variables in the body are HTML-escaped; a variable the kind does not declare, an unknown filter or tag, ' +
      'includes and layouts are refused with 400 VALIDATION.INVALID naming them. Subject: one line, at most 200 characters; body: at most 20,000.',
    params: emailTemplateParamsSchema,
    body: emailTemplateBodySchema,
    response: resultOf(emailTemplateSchema),
    audit: 'email_template.updated',
    errors: [...BODY_ERRORS, ...byKind],
  }),
  defineRoute({
    ...write,
    operationId: 'resetEmailTemplate',
    method: 'delete',
    path: '/portal/email-templates/{kind}',
    summary: 'Go back to the platform’s default template of a kind',
    params: emailTemplateParamsSchema,
    response: resultOf(emailTemplateSchema),
    audit: 'email_template.reset',
    errors: byKind,
  }),
  defineRoute({
    ...read,
    operationId: 'previewEmailTemplate',
    method: 'post',
    path: '/portal/email-templates/{kind}/preview',
    summary: 'Render a template with example data (nothing is saved or sent)',
    params: emailTemplateParamsSchema,
    body: emailTemplateBodySchema,
    response: resultOf(emailPreviewSchema),
    errors: [...BODY_ERRORS, ...byKind],
  }),
  defineRoute({
    ...write,
    operationId: 'sendTestEmailTemplate',
    method: 'post',
    path: '/portal/email-templates/{kind}/test',
    summary: 'Send the template in use, with example data, to the signed-in user',
    params: emailTemplateParamsSchema,
    response: resultOf(emailTestSendSchema),
    status: 202,
    errors: byKind,
  }),
] satisfies RouteSpec[];
