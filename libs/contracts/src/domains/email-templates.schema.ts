import { z } from 'zod';
import { singleLine } from '../common';

/** The e-mails domains-svc sends to site owners that a partner may word themselves. */
export const EMAIL_TEMPLATE_KINDS = ['INVITATION', 'INTRO', 'SCAN_REPORT', 'ACTIVATION_REMINDER'] as const;
export const emailTemplateKindSchema = z.enum(EMAIL_TEMPLATE_KINDS);
export type EmailTemplateKind = z.infer<typeof emailTemplateKindSchema>;

/** A template's bounds: a subject is one line. */
export const EMAIL_TEMPLATE_LIMITS = { subjectChars: 200, bodyChars: 20_000 } as const;

export interface EmailTemplateVariable {
  name: string;
  description: string;
  /** What a preview and a test send fill in. */
  example: string;
}

const common: EmailTemplateVariable[] = [
  { name: 'owner_first_name', description: "The site owner's first name (empty when unknown)", example: 'Ada' },
  { name: 'owner_last_name', description: "The site owner's last name (empty when unknown)", example: 'Lovelace' },
  { name: 'company_name', description: "The owner's company", example: 'Analytical Engines Ltd' },
  { name: 'domain_name', description: 'The domain (hostname) of the site', example: 'shop.example.com' },
  {
    name: 'widget_snippet',
    description: 'The script tag the owner pastes first in <head> of every page (shown as text)',
    example:
      '<script src="https://widget.example.net/widget/v1/3f1c9a2e-0000-4000-8000-000000000000/loader.js"></script>',
  },
  {
    name: 'approval_url',
    description: 'The link the owner opens to activate the widget once the snippet is on the site',
    example: 'https://shop.example.com/',
  },
  {
    name: 'partner_name',
    description: 'Your name as the portal settings hold it (empty until the platform has learnt it)',
    example: 'Acme Hosting',
  },
];

/** What each kind's template may use; an unknown variable is refused when the template is saved. */
export const EMAIL_TEMPLATE_VARIABLES: Record<EmailTemplateKind, readonly EmailTemplateVariable[]> = {
  INVITATION: common,
  INTRO: common,
  SCAN_REPORT: [
    ...common,
    { name: 'scan_pages', description: 'How many pages of the site were scanned', example: '4' },
    {
      name: 'scan_summary',
      description: 'Scripts, cookies and frames found per category, one "category: count" per line',
      example: 'ANALYTICS: 3\nMARKETING: 2\nNECESSARY: 5',
    },
    {
      name: 'scan_third_parties',
      description: 'The third parties found, comma separated (empty when none)',
      example: 'Google Analytics, Meta Pixel',
    },
    {
      name: 'scan_cookies',
      description: 'The cookies found, one "name (category, vendor)" per line (empty when none)',
      example: '_ga (ANALYTICS, Google Analytics)\n_fbp (MARKETING, Meta Pixel)',
    },
  ],
  ACTIVATION_REMINDER: [
    ...common,
    { name: 'reminder_day', description: 'Days since the site was added (2, 7, 14 or 30)', example: '7' },
  ],
};

export const emailTemplateVariableSchema = z.object({
  name: z.string(),
  description: z.string(),
  example: z.string(),
});

export const emailTemplateSchema = z
  .object({
    kind: emailTemplateKindSchema,
    subject: z.string().meta({ description: 'Liquid template of the subject (one line)' }),
    body: z.string().meta({ description: 'Liquid template of the HTML body; variables are HTML-escaped' }),
    customized: z.boolean().meta({ description: "false: the platform's default, used while the partner has none" }),
    variables: z.array(emailTemplateVariableSchema),
    updated_at: z.string().nullable().meta({ description: 'When the partner last saved it; null for the default' }),
  })
  .meta({ id: 'EmailTemplate' });
export type EmailTemplate = z.input<typeof emailTemplateSchema>;

export const emailTemplateParamsSchema = z.object({ kind: emailTemplateKindSchema });

/** A template as a partner writes it (save and preview). */
export const emailTemplateBodySchema = z.object({
  subject: singleLine(
    z
      .string()
      .trim()
      .min(1, 'is required')
      .max(EMAIL_TEMPLATE_LIMITS.subjectChars, `must be at most ${EMAIL_TEMPLATE_LIMITS.subjectChars} characters`),
  ),
  body: z
    .string()
    .min(1, 'is required')
    .max(EMAIL_TEMPLATE_LIMITS.bodyChars, `must be at most ${EMAIL_TEMPLATE_LIMITS.bodyChars} characters`),
});
export type EmailTemplateBody = z.output<typeof emailTemplateBodySchema>;

export const emailPreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string().meta({ description: 'The plain-text part, derived from the HTML' }),
});
export type EmailPreview = z.input<typeof emailPreviewSchema>;

export const emailTestSendSchema = z.object({
  to: z.string().meta({ description: "The signed-in user's e-mail address the test was queued to" }),
});
