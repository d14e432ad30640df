import type { InternalCaller } from '@platform/auth';
import {
  EMAIL_TEMPLATE_KINDS,
  EMAIL_TEMPLATE_VARIABLES,
  type EmailPreview,
  type EmailTemplate,
  type EmailTemplateBody,
  type EmailTemplateKind,
} from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { AppError, validationError } from '@platform/http';
import { enqueueMail } from '@platform/mail';
import type { DomainsDb } from '../db/tables';
import { DEFAULT_TEMPLATES } from '../domains/mail/default-templates';
import {
  deletePartnerTemplate,
  findPartnerTemplate,
  findPartnerTemplates,
  savePartnerTemplate,
  type SavedTemplate,
} from '../domains/db/email-templates.repository';
import { renderPartnerMail } from '../domains/mail/owner-mail';
import { exampleValues, renderTemplate, templateIssues } from '../domains/mail/template-engine';

/** The template a partner's owners get for a kind: their own, or the platform's default. */
function templateOf(kind: EmailTemplateKind, own: SavedTemplate | undefined): EmailTemplate {
  const text = own ?? DEFAULT_TEMPLATES[kind];
  return {
    kind,
    subject: text.subject,
    body: text.body,
    customized: own !== undefined,
    variables: EMAIL_TEMPLATE_VARIABLES[kind].map((v) => ({ ...v })),
    updated_at: own ? own.updated_at.toISOString() : null,
  };
}

/**
 * Templates are managed by a signed-in portal user only (the gateway answers 403 to API keys on
 * userOnly routes; a token without a user is refused here too).
 */
export function signedInUser(caller: InternalCaller) {
  if (!caller.user)
    throw new AppError('AUTH.FORBIDDEN', 'E-mail templates are managed by a signed-in portal user, not an API key.');
  return caller.user;
}

export async function listTemplates(db: Kysely<DomainsDb>, partnerId: string): Promise<EmailTemplate[]> {
  const own = new Map((await findPartnerTemplates(db, partnerId)).map((t) => [t.kind, t]));
  return EMAIL_TEMPLATE_KINDS.map((kind) => templateOf(kind, own.get(kind)));
}

export async function getTemplate(db: Kysely<DomainsDb>, partnerId: string, kind: EmailTemplateKind) {
  return templateOf(kind, await findPartnerTemplate(db, partnerId, kind));
}

async function assertValid(kind: EmailTemplateKind, template: EmailTemplateBody) {
  const issues = await templateIssues(kind, template);
  if (issues.length > 0) throw validationError(issues);
}

export async function saveTemplate(
  db: Kysely<DomainsDb>,
  partnerId: string,
  kind: EmailTemplateKind,
  template: EmailTemplateBody,
): Promise<EmailTemplate> {
  await assertValid(kind, template);
  return templateOf(kind, await savePartnerTemplate(db, partnerId, kind, template));
}

/** Back to the platform's default. */
export async function resetTemplate(db: Kysely<DomainsDb>, partnerId: string, kind: EmailTemplateKind) {
  await deletePartnerTemplate(db, partnerId, kind);
  return templateOf(kind, undefined);
}

/** A template as it would read with the kind's example values; nothing is saved. */
export async function previewTemplate(kind: EmailTemplateKind, template: EmailTemplateBody): Promise<EmailPreview> {
  await assertValid(kind, template);
  return renderTemplate(template, exampleValues(kind));
}

/** Queues the template in use, with the example values, to the signed-in user who asked. */
export async function sendTestMail(
  db: Kysely<DomainsDb>,
  caller: InternalCaller,
  kind: EmailTemplateKind,
): Promise<{ to: string }> {
  const user = signedInUser(caller);
  const mail = await renderPartnerMail(db, caller.partnerId, kind, exampleValues(kind));
  await enqueueMail(db, [
    { partnerId: caller.partnerId, kind: 'template-test', to: user.email, ...mail, subject: `[Test] ${mail.subject}` },
  ]);
  return { to: user.email };
}
