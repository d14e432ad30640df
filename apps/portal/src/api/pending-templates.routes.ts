// The e-mail template routes of issue 26's contract (domains-svc; see pending.schema.ts).
import { z } from 'zod';
import { defineRoute, resultOf, type ErrorCode } from '@platform/contracts';
import { emailTemplateBodySchema, emailTemplateSchema, kindParams } from './pending.schema';

const templates = {
  service: 'domains' as const,
  tag: 'E-mail templates',
  errors: [] as ErrorCode[],
  userOnly: true as const,
};

export const emailTemplateRoutes = {
  listEmailTemplates: defineRoute({
    ...templates,
    permission: 'templates:read',
    operationId: 'listEmailTemplates',
    method: 'get',
    path: '/portal/email-templates',
    summary: 'List e-mail templates',
    response: resultOf(z.array(emailTemplateSchema)),
  }),
  getEmailTemplate: defineRoute({
    ...templates,
    permission: 'templates:read',
    operationId: 'getEmailTemplate',
    method: 'get',
    path: '/portal/email-templates/{kind}',
    summary: 'Read an e-mail template',
    params: kindParams,
    response: resultOf(emailTemplateSchema),
  }),
  updateEmailTemplate: defineRoute({
    ...templates,
    permission: 'templates:write',
    operationId: 'updateEmailTemplate',
    method: 'put',
    path: '/portal/email-templates/{kind}',
    summary: 'Customize an e-mail template',
    params: kindParams,
    body: emailTemplateBodySchema,
    response: resultOf(emailTemplateSchema),
  }),
  resetEmailTemplate: defineRoute({
    ...templates,
    permission: 'templates:write',
    operationId: 'resetEmailTemplate',
    method: 'delete',
    path: '/portal/email-templates/{kind}',
    summary: "Go back to the platform's default",
    params: kindParams,
    response: z.unknown(),
  }),
  previewEmailTemplate: defineRoute({
    ...templates,
    permission: 'templates:read',
    operationId: 'previewEmailTemplate',
    method: 'post',
    path: '/portal/email-templates/{kind}/preview',
    summary: 'Render a template with example data',
    params: kindParams,
    body: emailTemplateBodySchema,
    response: resultOf(z.object({ subject: z.string(), html: z.string(), text: z.string() })),
  }),
  sendTestEmail: defineRoute({
    ...templates,
    permission: 'templates:read',
    operationId: 'sendTestEmail',
    method: 'post',
    path: '/portal/email-templates/{kind}/test',
    summary: 'Send the rendered e-mail to yourself',
    params: kindParams,
    response: z.unknown(),
    status: 202,
  }),
};
