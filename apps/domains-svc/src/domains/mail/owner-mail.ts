import type { EmailTemplateKind } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { QueuedMail } from '@platform/mail';
import type { DomainsDb } from '../../db/tables';
import { widgetScript } from '../domain/widget-snippet';
import { DEFAULT_TEMPLATES } from './default-templates';
import { findPartnerName, findPartnerTemplate } from '../db/email-templates.repository';
import { renderTemplate, type TemplateValues } from './template-engine';

/** What every owner e-mail's links are made from (installation settings). */
export interface OwnerMailSettings {
  widgetBaseUrl: string;
  /** ACTIVATION_APPROVAL_URL: {property_id}, {domain_id} and {domain_name} are filled in. */
  approvalUrlTemplate: string;
}

/** The domain an owner e-mail is about, with its owner and company. */
export interface OwnerMailDomain {
  id: string;
  partner_id: string;
  hostname: string;
  property_id: string;
  owner_email: string;
  owner_first_name: string | null;
  owner_last_name: string | null;
  company_name: string;
}

/** The page the owner opens to activate the widget (the spec's approval_url). */
export function approvalUrl(
  template: string,
  domain: Pick<OwnerMailDomain, 'id' | 'property_id' | 'hostname'>,
): string {
  const values: Record<string, string> = {
    property_id: domain.property_id,
    domain_id: domain.id,
    domain_name: domain.hostname,
  };
  return template.replace(/\{(property_id|domain_id|domain_name)\}/g, (_, key: string) =>
    encodeURIComponent(values[key]),
  );
}

/** A partner's domain as owner e-mails need it (in the caller's transaction). */
export function findOwnerMailDomain(
  db: Kysely<DomainsDb>,
  partnerId: string,
  domainId: string,
): Promise<OwnerMailDomain | undefined> {
  return db
    .selectFrom('domains as d')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select([
      'd.id',
      'd.partner_id',
      'd.hostname',
      'd.property_id',
      'c.owner_email',
      'c.owner_first_name',
      'c.owner_last_name',
      'c.name as company_name',
    ])
    .where('d.id', '=', domainId)
    .where('d.partner_id', '=', partnerId)
    .executeTakeFirst();
}

/** The variables every kind has, from the domain's own rows only (a template sees nothing else). */
export function ownerValues(domain: OwnerMailDomain, settings: OwnerMailSettings): TemplateValues {
  return {
    owner_first_name: domain.owner_first_name ?? '',
    owner_last_name: domain.owner_last_name ?? '',
    company_name: domain.company_name,
    domain_name: domain.hostname,
    widget_snippet: widgetScript(settings.widgetBaseUrl, domain.property_id),
    approval_url: approvalUrl(settings.approvalUrlTemplate, domain),
  };
}

/**
 * Renders one e-mail of `kind` with the partner's template (the default when they have none) and
 * `values` (partner_name is the partner's recorded name unless given). Templates are checked when
 * saved; should one still fail (e.g. its render limit), the owner gets the default wording rather
 * than nothing.
 */
export async function renderPartnerMail(
  db: Kysely<DomainsDb>,
  partnerId: string,
  kind: EmailTemplateKind,
  given: TemplateValues,
) {
  const own = await findPartnerTemplate(db, partnerId, kind);
  const values = { ...given, partner_name: given.partner_name ?? (await findPartnerName(db, partnerId)) };
  if (own) {
    try {
      return await renderTemplate(own, values);
    } catch {
      // Falls through to the default.
    }
  }
  return renderTemplate(DEFAULT_TEMPLATES[kind], values);
}

/** The owner's e-mail of `kind` about `domain`, ready for the mail queue (queueKind names it there). */
export async function ownerMail(
  db: Kysely<DomainsDb>,
  settings: OwnerMailSettings,
  kind: EmailTemplateKind,
  queueKind: string,
  domain: OwnerMailDomain,
  extra: TemplateValues = {},
): Promise<QueuedMail> {
  const mail = await renderPartnerMail(db, domain.partner_id, kind, { ...ownerValues(domain, settings), ...extra });
  return { partnerId: domain.partner_id, kind: queueKind, to: domain.owner_email, ...mail };
}

/** Which owner e-mail to send, and its kind in the mail queue. */
export interface OwnerMailRequest {
  kind: EmailTemplateKind;
  queueKind: string;
}

/** The owner e-mails asked for a domain found by id in the caller's transaction; none when it is gone. */
export async function ownerMailsOf(
  db: Kysely<DomainsDb>,
  settings: OwnerMailSettings,
  partnerId: string,
  domainId: string,
  requests: OwnerMailRequest[],
): Promise<QueuedMail[]> {
  if (requests.length === 0) return [];
  const domain = await findOwnerMailDomain(db, partnerId, domainId);
  if (!domain) return [];
  const mails: QueuedMail[] = [];
  for (const r of requests) mails.push(await ownerMail(db, settings, r.kind, r.queueKind, domain));
  return mails;
}
