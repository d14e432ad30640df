import { z } from 'zod';
import { createDomainFieldsSchema, hexColor, REQUIRED_FIELDS } from '../domains/domain.schema';
import { findingCategorySchema, scanStatusSchema } from '../domains/scan.schema';

/**
 * The partner's onboarding widgets: scripts a partner embeds on its own site (control panel,
 * checkout) so its customers register a website (registration) or scan one (scan), without a key.
 */
export const ONBOARDING_WIDGETS = ['registration', 'scan'] as const;
export type OnboardingWidget = (typeof ONBOARDING_WIDGETS)[number];
export const MAX_WIDGET_ORIGINS = 20;

const ORIGIN_MESSAGE = 'must be an origin like https://shop.example.com (scheme, host and port; no path)';

/**
 * A page origin as a browser sends it in Origin (scheme://host[:port]): what is typed is
 * normalised (case, default port, a trailing slash), anything with a path, query or user is refused.
 */
export const widgetOriginSchema = z
  .string()
  .trim()
  .max(300)
  .transform((value, ctx) => {
    try {
      const url = new URL(value);
      const plain = !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
      if ((url.protocol === 'https:' || url.protocol === 'http:') && plain) return url.origin;
    } catch {
      // Falls through to the issue.
    }
    ctx.issues.push({ code: 'custom', input: value, message: ORIGIN_MESSAGE });
    return z.NEVER;
  })
  .meta({ example: 'https://panel.example-hosting.com' });

export const onboardingWidgetSchema = z.object({
  enabled: z.boolean().meta({ description: 'Whether the widget answers at all' }),
  allowed_origins: z
    .array(widgetOriginSchema)
    .max(MAX_WIDGET_ORIGINS, `at most ${MAX_WIDGET_ORIGINS} origins`)
    .transform((list) => [...new Set(list)])
    .meta({ description: 'The pages that may embed it: exact origins (scheme://host[:port]); any other is refused' }),
  primary_color: hexColor().nullable().meta({ description: "The widget's colour; null: the platform's" }),
});
export type OnboardingWidgetSettings = z.output<typeof onboardingWidgetSchema>;

export const onboardingWidgetsSchema = z
  .object({ registration: onboardingWidgetSchema, scan: onboardingWidgetSchema })
  .meta({ id: 'OnboardingWidgets' });
export type OnboardingWidgets = z.output<typeof onboardingWidgetsSchema>;

/** Both widgets off until the partner turns them on. */
export const DEFAULT_ONBOARDING_WIDGETS: OnboardingWidgets = {
  registration: { enabled: false, allowed_origins: [], primary_color: null },
  scan: { enabled: false, allowed_origins: [], primary_color: null },
};

// --- public (the widgets in a visitor's browser)

/** A partner id in a widget's path: any text; one that names no partner answers 404. */
export const onboardingPartnerParamsSchema = z.object({ partnerId: z.string().min(1).max(64) });
export const widgetScanParamsSchema = onboardingPartnerParamsSchema.extend({
  scanToken: z.string().min(16).max(100).meta({ description: 'The token the scan request answered' }),
});

/** What a widget shows before anything is sent: the partner's name and colour, and what the form requires. */
export const onboardingConfigSchema = z
  .object({
    partner_name: z.string(),
    primary_color: z.string().nullable(),
    required_fields: z
      .array(z.enum(REQUIRED_FIELDS))
      .meta({ description: "Registration: the fields the partner's onboarding settings make required" }),
  })
  .meta({ id: 'OnboardingWidgetConfig' });
export type OnboardingConfig = z.output<typeof onboardingConfigSchema>;

const fields = createDomainFieldsSchema.shape;

/** A customer's registration: the create-domain body's own fields and rules (first and last name required). */
export const registrationBodySchema = z
  .object({
    domain: fields.domain,
    company_name: fields.company_name,
    account_first_name: fields.account_first_name.unwrap().min(1, 'is required'),
    account_last_name: fields.account_last_name.unwrap().min(1, 'is required'),
    account_email: fields.account_email,
    phone_number: fields.phone_number,
    country: fields.country,
    merchant_id: fields.merchant_id.meta({ description: "The partner's merchant id, as the page passes it" }),
  })
  .meta({ id: 'RegistrationRequest' });
export type RegistrationBody = z.output<typeof registrationBodySchema>;

export const registrationSentSchema = z
  .object({
    email: z.string().meta({ description: 'Where the confirmation link went' }),
    expires_at: z.string().meta({ description: 'When the link stops working' }),
  })
  .meta({ id: 'RegistrationSent' });

export const confirmRegistrationBodySchema = z.object({
  token: z.string().min(16).max(200).meta({ description: 'The token of the e-mailed link (after #token=)' }),
});

/** The registered website, as the confirmation page shows it. */
export const registeredSiteSchema = z.object({
  hostname: z.string(),
  privacy_widget: z.string().meta({ description: "The script tag to paste first in the site's <head>" }),
  approval_url: z
    .string()
    .meta({ description: "Where the owner signs in to the site's console (the activation link of the owner e-mails)" }),
});
export type RegisteredSite = z.output<typeof registeredSiteSchema>;
export const registrationConfirmedSchema = registeredSiteSchema
  .extend({ partner: z.object({ name: z.string(), primary_color: z.string().nullable() }) })
  .meta({ id: 'RegistrationConfirmed' });
export type RegistrationConfirmed = z.output<typeof registrationConfirmedSchema>;

export const widgetScanBodySchema = z
  .object({ url: fields.domain, email: fields.account_email })
  .meta({ id: 'WidgetScanRequest' });
export type WidgetScanBody = z.output<typeof widgetScanBodySchema>;

export const widgetScanAcceptedSchema = z
  .object({
    token: z.string().meta({ description: 'Read the scan with GET .../scans/{token}' }),
    hostname: z.string(),
    status: scanStatusSchema,
  })
  .meta({ id: 'WidgetScanAccepted' });

/** What a visitor sees of a finished scan (the e-mailed report has the details). */
export const widgetScanSummarySchema = z.object({
  pages: z.number().int().meta({ description: 'Pages visited' }),
  categories: z
    .array(z.object({ name: findingCategorySchema, label: z.string(), count: z.number().int() }))
    .meta({ description: 'Distinct scripts, cookies and frames per category, each with its title (CATEGORY_TEXTS)' }),
  cookies: z.number().int(),
  trackers: z.number().int().meta({ description: 'Scripts and frames in the analytics or marketing category' }),
  third_parties: z.array(z.string()),
});
export type WidgetScanSummary = z.output<typeof widgetScanSummarySchema>;

export const widgetScanViewSchema = z
  .object({
    hostname: z.string(),
    status: scanStatusSchema,
    summary: widgetScanSummarySchema.nullable().meta({ description: 'Once completed' }),
  })
  .meta({ id: 'WidgetScan' });
export type WidgetScanView = z.output<typeof widgetScanViewSchema>;

// --- the gateway's calls to domains-svc (it owns the partner's settings and passes them along)

export const onboardingPartnerSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string(),
  required_fields: z.array(z.enum(REQUIRED_FIELDS)),
  default_product: z.string().nullable(),
  default_price_list: z.string().nullable(),
});
export type OnboardingPartner = z.output<typeof onboardingPartnerSchema>;
