import { z } from 'zod';
import { singleLine } from '../common';
import { receiptTypeSchema } from './consent-record.schema';
import { LANGUAGES } from '../widget/texts/languages';
import { dsarStatusSchema, dsarTypeSchema } from './data-request.schema';
import { REGIMES } from '../widget/regime';

/** A token the widget makes: a visitor id or a nonce. */
const token = (what: string) =>
  z
    .string()
    .min(16, 'must be at least 16 characters')
    .max(64, 'must be at most 64 characters')
    .regex(/^[A-Za-z0-9_-]+$/, `${what} may hold only A-Z, a-z, 0-9, _ and -`);

export const propertyIdParamsSchema = z.object({
  propertyId: z.string().min(1).max(64).meta({ description: "The property's id (from the snippet)" }),
});

/** What the widget sends as widget_version: MAJOR.MINOR.PATCH (shown on screens: never free text). */
export const WIDGET_VERSION_PATTERN = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;

/** A visitor's choice, as the widget sends it. Unknown fields are ignored. */
export const receiptBodySchema = z.object({
  receipt_type: receiptTypeSchema,
  subject: token('subject').meta({ description: 'The anonymous visitor id the widget keeps on the site' }),
  // The revision the settings gave the widget (a base64url hash): recorded as the notice the visitor saw.
  // Not compared with the property's current one: settings are cached (Cache-Control), so a
  // visitor may rightly answer the notice of the previous revision.
  consent_revision: z
    .string()
    .min(1, { abort: true })
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'consent_revision may hold only A-Z, a-z, 0-9, _ and -')
    .meta({ description: "The settings' consent_revision the visitor answered" }),
  categories: z
    .object({
      // Never the visitor's to refuse: sent or not, it is recorded as granted; false is 400.
      necessary: z.literal(true, 'must be true (necessary technologies are always on)').optional(),
      functional: z.boolean().default(false),
      analytics: z.boolean().default(false),
      marketing: z.boolean().default(false),
    })
    .default({ functional: false, analytics: false, marketing: false })
    .meta({
      description:
        'Each optional category granted or not (necessary is always granted). With `gpc` true, marketing is recorded as refused.',
    }),
  /** For AGE_CONFIRMATION, WIRETAPPING and VPPA: the visitor's yes or no; a COOKIE_CONSENT receipt's status comes from its categories. */
  granted: z.boolean().optional(),
  gpc: z.boolean().default(false).meta({
    description: 'Global Privacy Control was on: it wins over a marketing grant (recorded as refused)',
  }),
  widget_version: z
    .string()
    .max(32)
    .regex(WIDGET_VERSION_PATTERN, 'must be a version such as 1.0.0')
    .meta({ description: 'The widget build that sent it (MAJOR.MINOR.PATCH)' }),
  nonce: token('nonce').meta({ description: 'Unique per receipt: the same nonce again is refused (409)' }),
  language: z.enum(LANGUAGES).optional().meta({
    description:
      "The language the visitor read the notice in (the settings' `language`): the record states the categories' texts in it (default en)",
  }),
  regime: z.enum(REGIMES).optional().meta({
    description:
      "The regime the notice followed (the settings' regime, which the property may pin); unset: the regime of the visitor's place",
  }),
});
export type ReceiptBody = z.output<typeof receiptBodySchema>;

/** A data subject request from the privacy center. */
export const dsarBodySchema = z.object({
  type: dsarTypeSchema,
  email: singleLine(z.email().max(254)),
  name: singleLine(z.string().trim().min(1).max(200)).optional(),
  message: z.string().trim().max(2000).optional(),
  subject: token('subject').optional(),
});
export type DsarBody = z.output<typeof dsarBodySchema>;

/** The form's answer: stored as RECEIVED; nothing happens until the requester opens the e-mailed link. */
export const dsarAnswerSchema = z.object({
  request_id: z.string(),
  status: dsarStatusSchema.extract(['RECEIVED']),
  confirm_by: z.string().meta({ description: 'The e-mailed link works until then; unconfirmed, the request expires' }),
});
export type DsarAnswer = z.infer<typeof dsarAnswerSchema>;

/** A public Ed25519 key of record signatures (RFC 8037). */
export const signingJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  alg: z.literal('EdDSA'),
  use: z.literal('sig'),
});
export const jwksSchema = z.object({ keys: z.array(signingJwkSchema) }).meta({ id: 'RecordSigningKeys' });
