import { createHash } from 'node:crypto';
import {
  CONSENT_CATEGORIES,
  baseLanguage,
  isLanguage,
  noticeTypeSchema,
  type Language,
  REGIMES,
  type Regime,
  type DataCollectionItem,
  type WidgetCookie,
  type WidgetSettings,
} from '@platform/contracts';
import { categoryTexts } from '@platform/contracts/widget-texts-all';
import { notFound } from '@platform/http';
import { registrableDomain } from './cookie-domain';
import { findWidgetSettingsRow, type WidgetSettingsRow } from './widget.repository';
import type { DomainsContext } from '../context';

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * A stable hash of what a visitor consents to (whether scripts are managed, the categories and
 * the data collected): a new revision makes the widget ask again; colours or texts do not.
 */
export function consentRevision(
  s: Pick<WidgetSettings, 'has_scripts' | 'categories' | 'data_collection' | 'cookies'>,
): string {
  // Before any scan (no cookies known) the hash is the one it always was, so stored choices stay valid.
  const consented =
    s.cookies.length > 0
      ? [s.has_scripts, s.categories, s.data_collection, s.cookies]
      : [s.has_scripts, s.categories, s.data_collection];
  return hash(JSON.stringify(consented)).slice(0, 22);
}

const blankToNull = (v: string | null) => (v === null || v === '' ? null : v);

const NO_ADDRESS = { country: null, state: null, city: null, address: null, address_2: null, postal_code: null };

/**
 * The company as far as the widget shows it, and no further: everything on the company tab
 * (display_company); without it, the legal documents (has_docs) still name the controller, its
 * address and e-mail; with neither, only the name (the schema requires it). Hidden fields are null.
 */
export function publicCompany(row: WidgetSettingsRow): WidgetSettings['company'] {
  const inDocs = row.display_company || row.has_docs;
  return {
    name: row.company_name,
    trade_name: inDocs ? row.trade_name : null,
    email: inDocs ? row.email : null,
    address: inDocs
      ? {
          country: row.country,
          state: row.state,
          city: row.city,
          address: row.address,
          address_2: row.address_2,
          postal_code: row.postal_code,
        }
      : NO_ADDRESS,
    phone_number: row.display_company ? row.phone_number : null,
  };
}

/**
 * The company's DPO when the widget shows it (display_dpo) and it is on file; otherwise null, and
 * the widget's DPO view says none is on file.
 */
function publicDpo(row: WidgetSettingsRow): WidgetSettings['dpo'] {
  if (!row.display_dpo || (row.dpo_name === null && row.dpo_email === null)) return null;
  return { name: row.dpo_name, email: row.dpo_email };
}

/** The language the widget renders: the visitor's when the widget speaks it, else the property's default. */
export function settingsLanguage(row: Pick<WidgetSettingsRow, 'default_language'>, lang?: string): Language {
  const fallback = isLanguage(row.default_language) ? row.default_language : 'en';
  return baseLanguage(lang) ?? fallback;
}

/** The categories in `language` (the revision is computed over English: one revision for all languages). */
function categoriesIn(language: Language): WidgetSettings['categories'] {
  if (language === 'en') return CONSENT_CATEGORIES;
  const texts = categoryTexts(language);
  return CONSENT_CATEGORIES.map((c) => ({
    ...c,
    label: texts[c.name as keyof typeof texts].label,
    description: texts[c.name as keyof typeof texts].description,
  }));
}

/** The property's overrides in `language` (key -> text), as validated when they were written. */
function overridesIn(row: Pick<WidgetSettingsRow, 'text_overrides'>, language: Language): Record<string, string> {
  const all = (row.text_overrides || {}) as Partial<Record<Language, Record<string, string>>>;
  return all[language] ?? {};
}

/** The regime a visitor gets: the property's pinned one, else the one of the visitor's place. */
export function visitorRegime(pinned: string, ofPlace: Regime): Regime {
  return (REGIMES as readonly string[]).includes(pinned) ? (pinned as Regime) : ofPlace;
}

/**
 * The settings a visitor whose place has the regime `ofPlace` and who asks for `lang` gets (the same
 * for every visitor of that regime and language).
 */
export function toWidgetSettings(row: WidgetSettingsRow, ofPlace: Regime = 'OPT_IN', lang?: string): WidgetSettings {
  // What the latest completed scan found ([] before the first: nothing is guessed).
  const language = settingsLanguage(row, lang);
  const consented = {
    has_scripts: row.has_scripts,
    categories: CONSENT_CATEGORIES,
    data_collection: row.scan_data_collection as DataCollectionItem[],
    cookies: row.scan_cookies as WidgetCookie[],
  };
  return {
    property_id: row.property_id,
    hostname: row.hostname,
    active: row.status === 'ACTIVE',
    notice_type: noticeTypeSchema.catch('CLASSIC').parse(row.default_notice_type),
    primary_color: blankToNull(row.primary_color),
    text_color: blankToNull(row.text_color),
    widget_font: blankToNull(row.widget_font),
    widget_position: blankToNull(row.widget_position),
    border_radius: blankToNull(row.border_radius),
    has_dsar: row.has_dsar,
    has_docs: row.has_docs,
    has_accessibility: row.has_accessibility,
    display_company: row.display_company,
    display_dpo: row.display_dpo,
    ...consented,
    categories: categoriesIn(language),
    consent_revision: consentRevision(consented),
    company: publicCompany(row),
    dpo: publicDpo(row),
    cookie_domain: registrableDomain(row.hostname),
    consent_max_age_days: row.consent_max_age_days,
    language,
    texts: overridesIn(row, language),
    regime: visitorRegime(row.regime, ofPlace),
    consent_mode: { ads_data_redaction: row.ads_data_redaction, url_passthrough: row.url_passthrough },
  };
}

/** The answer and its validator: a strong ETag over the exact bytes the widget receives. */
export interface WidgetSettingsAnswer {
  body: { result: WidgetSettings };
  etag: string;
}

/** The answer for a visitor whose place has the regime `ofPlace` (the ETag differs per regime: it hashes the body). */
export async function widgetSettings(
  ctx: Pick<DomainsContext, 'db'>,
  propertyId: string,
  ofPlace: Regime = 'OPT_IN',
  lang?: string,
): Promise<WidgetSettingsAnswer> {
  const row = await findWidgetSettingsRow(ctx.db, propertyId);
  if (!row) throw notFound('property');
  const body = { result: toWidgetSettings(row, ofPlace, lang) };
  return { body, etag: `"${hash(JSON.stringify(body)).slice(0, 27)}"` };
}

/** Whether an If-None-Match header names this ETag (a list, weak or strong, or *). */
export function matchesEtag(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (typeof ifNoneMatch !== 'string') return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
