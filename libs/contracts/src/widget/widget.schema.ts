import { z } from 'zod';
import { CATEGORY_TEXTS, CONSENT_CATEGORY_IDS } from '../consent/categories';
import { noticeTypeSchema } from '../domains/domain.schema';
import { LANGUAGES } from './texts/languages';
import { REGIMES } from './regime';

/** Path of every property's public route: any string; one that names no property answers 404. */
export const widgetPropertyParamsSchema = z.object({ propertyId: z.string().min(1).max(64) });

/**
 * The visitor's language as the widget detected it (navigator.languages, then the page's lang), in
 * the URL so each language's answer is cached on its own URL. A language the widget does not speak
 * (or none) is answered in the property's default_language: never an error.
 */
export const widgetSettingsQuerySchema = z.object({
  lang: z
    .string()
    .max(35)
    .optional()
    .meta({ description: 'A BCP 47 tag, e.g. de or pt-BR (its base language is used)' }),
});

/** One consent category the widget offers, in the words the visitor reads; necessary is always granted. */
export const consentCategorySchema = z.object({
  name: z.string().meta({ description: 'The category id: necessary, functional, analytics, marketing' }),
  label: z.string().meta({ description: "The category's title as the widget shows it" }),
  required: z.boolean().optional(),
  description: z.string().meta({ description: 'The sentence the widget shows under the title' }),
});
export type ConsentCategory = z.infer<typeof consentCategorySchema>;

/** The categories every property offers today, in the order the widget shows them. */
export const CONSENT_CATEGORIES: ConsentCategory[] = CONSENT_CATEGORY_IDS.map((name) => ({
  name,
  label: CATEGORY_TEXTS[name].label,
  ...(name === 'necessary' ? { required: true } : {}),
  description: CATEGORY_TEXTS[name].description,
}));

/** The spec's data_collection item (purposes, categories and partners of the property). */
export const dataCollectionItemSchema = z.object({
  name: z.string(),
  description: z.string(),
  fields: z.array(z.object({ categories: z.array(z.string()), consent_type: z.string(), name: z.string() })),
  partners: z.array(z.object({ name: z.string(), usage: z.string(), url: z.string() })),
  processors: z.array(z.record(z.string(), z.unknown())),
  purposes: z.array(
    z.object({
      category: z.string(),
      is_primary: z.boolean(),
      is_profiling: z.boolean(),
      legal_base: z.string(),
      legal_description: z.string(),
      name: z.string(),
      status: z.string(),
      termination: z.string(),
    }),
  ),
});

const nullableString = z.string().nullable();

/** A cookie the site sets, as the latest scan found it: the widget lists them per category. */
export const widgetCookieSchema = z.object({
  name: z.string(),
  domain: z.string(),
  category: z.enum(['necessary', 'functional', 'analytics', 'marketing', 'unclassified']),
  vendor: nullableString,
  expires_at: nullableString.meta({ description: 'null: a session cookie' }),
});
export type WidgetCookie = z.infer<typeof widgetCookieSchema>;

export const widgetCompanySchema = z.object({
  name: z.string(),
  trade_name: nullableString,
  email: nullableString,
  address: z.object({
    country: nullableString,
    state: nullableString,
    city: nullableString,
    address: nullableString,
    address_2: nullableString,
    postal_code: nullableString,
  }),
  phone_number: nullableString,
});

/** What a visitor's browser learns about a property: no partner data beyond what the widget shows. */
export const widgetSettingsSchema = z
  .object({
    property_id: z.string(),
    hostname: z.string(),
    active: z.boolean().meta({ description: 'Whether the domain is ACTIVE' }),
    notice_type: noticeTypeSchema,
    primary_color: nullableString,
    text_color: nullableString,
    widget_font: nullableString,
    widget_position: nullableString,
    border_radius: nullableString,
    has_scripts: z.boolean(),
    has_dsar: z.boolean(),
    has_docs: z.boolean(),
    has_accessibility: z.boolean(),
    display_company: z.boolean(),
    display_dpo: z.boolean(),
    consent_revision: z.string().meta({
      description:
        'Changes whenever anything the visitor consents to changes (has_scripts, categories, data_collection, cookies)',
    }),
    categories: z.array(consentCategorySchema),
    data_collection: z.array(dataCollectionItemSchema),
    cookies: z
      .array(widgetCookieSchema)
      .meta({ description: "The cookies the site's latest scan found ([] before the first scan)" }),
    company: widgetCompanySchema,
    dpo: z.object({ name: nullableString, email: nullableString }).nullable(),
    cookie_domain: nullableString.meta({
      description:
        "The registrable domain of hostname (Public Suffix List, private suffixes included): the widget keeps the visitor's choice in a cookie on it, so the property's hostname and its subdomains share it. null for a hostname without one (an IP address, a public suffix): the cookie is the page's host only",
    }),
    consent_max_age_days: z.number().int().meta({
      description: 'Days a choice stands; an older one is asked again (as is one of another consent_revision)',
    }),
    language: z.enum(LANGUAGES).meta({
      description:
        "The language the widget renders: the query's lang when the widget speaks it (pt-BR -> pt), else the property's default_language. categories[] are in it",
    }),
    texts: z.record(z.string(), z.string()).meta({
      description: "The property's overrides of the widget's texts in `language` (key -> text; {} when none)",
    }),
    regime: z.enum(REGIMES).meta({
      description:
        "The notice this visitor gets: the property's pinned regime, else the one of the visitor's place (GeoIP of the address; unknown: OPT_IN). OPT_IN: nothing optional before a choice; OPT_OUT: everything runs until the visitor opts out of sale/sharing; NOTICE_ONLY: a notice, everything runs",
    }),
    consent_mode: z
      .object({ ads_data_redaction: z.boolean(), url_passthrough: z.boolean() })
      .meta({ description: "Google Consent Mode's switches the loader sets (gtag('set', ...))" }),
  })
  .meta({ id: 'WidgetSettings' });
export type WidgetSettings = z.infer<typeof widgetSettingsSchema>;

/** A page view: the page's URL (never stored), which must be on the property's hostname or a subdomain. */
export const widgetViewBodySchema = z
  .object({
    url: z
      .string()
      .max(2048)
      .meta({ description: "The page's http(s) URL, on the property's hostname or a subdomain" }),
  })
  .strict();

export const widgetViewAcceptedSchema = z.object({ accepted: z.literal(true) });
