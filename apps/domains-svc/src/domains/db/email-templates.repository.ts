import type { EmailTemplateKind } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { DomainsDb } from '../../db/tables';
import type { TemplateText } from '../mail/default-templates';

export type SavedTemplate = TemplateText & { kind: string; updated_at: Date };

/** A partner's own templates (the kinds they customized). */
export function findPartnerTemplates(db: Kysely<DomainsDb>, partnerId: string): Promise<SavedTemplate[]> {
  return db
    .selectFrom('email_templates')
    .select(['kind', 'subject', 'body', 'updated_at'])
    .where('partner_id', '=', partnerId)
    .execute();
}

export function findPartnerTemplate(
  db: Kysely<DomainsDb>,
  partnerId: string,
  kind: EmailTemplateKind,
): Promise<SavedTemplate | undefined> {
  return db
    .selectFrom('email_templates')
    .select(['kind', 'subject', 'body', 'updated_at'])
    .where('partner_id', '=', partnerId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

export function savePartnerTemplate(
  db: Kysely<DomainsDb>,
  partnerId: string,
  kind: EmailTemplateKind,
  template: TemplateText,
): Promise<SavedTemplate> {
  return db
    .insertInto('email_templates')
    .values({ partner_id: partnerId, kind, subject: template.subject, body: template.body })
    .onConflict((oc) =>
      oc.columns(['partner_id', 'kind']).doUpdateSet({
        subject: template.subject,
        body: template.body,
        updated_at: new Date(),
      }),
    )
    .returning(['kind', 'subject', 'body', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export async function deletePartnerTemplate(db: Kysely<DomainsDb>, partnerId: string, kind: EmailTemplateKind) {
  await db.deleteFrom('email_templates').where('partner_id', '=', partnerId).where('kind', '=', kind).execute();
}

/** The partner's name as last recorded ('' when the gateway never sent one). */
export async function findPartnerName(db: Kysely<DomainsDb>, partnerId: string): Promise<string> {
  const row = await db
    .selectFrom('partner_names')
    .select('name')
    .where('partner_id', '=', partnerId)
    .executeTakeFirst();
  return row?.name ?? '';
}

export async function savePartnerName(db: Kysely<DomainsDb>, partnerId: string, name: string) {
  await db
    .insertInto('partner_names')
    .values({ partner_id: partnerId, name })
    .onConflict((oc) =>
      oc
        .column('partner_id')
        .doUpdateSet({ name, updated_at: new Date() })
        .where('partner_names.name', 'is distinct from', name),
    )
    .execute();
}
