import { z } from 'zod';
import { defaultUrlOf } from '@platform/config';
import { mailConfig } from '@platform/mail';
import type { ConfigOf } from '@platform/service';
import type { InstanceSettings } from './context';
import { importsConfig } from './imports/imports.config';
import { scannerConfig } from './scanner/scan-engine';

/**
 * domains-svc's own configuration, beside the chassis' (database, broker, keys, outbox...). Its
 * role (DOMAINS_ROLE) is the chassis' roles option, declared in service.ts.
 */
export const domainsConfig = {
  ...mailConfig,
  /** Public base URL the widget script is served from (the gateway). */
  WIDGET_BASE_URL: z
    .string()
    .url()
    .default(defaultUrlOf('gateway'))
    .transform((v) => v.replace(/\/+$/, '')),
  INSTANCE_ID: z.coerce.number().int().min(0).default(1),
  INSTANCE_NAME: z.string().min(1).default('local'),
  INSTANCE_HOSTNAME: z.string().min(1).default('127.0.0.1'),
  INSTANCE_REGION: z.string().min(1).default('local'),
  SYSTEM_SEGMENT_ID: z.coerce.number().int().min(0).default(1),
  WIDGET_VERSION: z.coerce.number().int().min(1).default(1),
  /** The length of an activation reminder's "day" (day 2, 7, 14, 30): tests and demos shorten it. */
  ACTIVATION_REMINDER_DAY_MS: z.coerce.number().int().min(1).default(86_400_000),
  /** Tests only: the reminders' "now" is the time written in this file (fileClock), so a test moves it instead of waiting. */
  ACTIVATION_REMINDER_CLOCK_FILE: z.string().min(1).optional(),
  /** The portal's address (the gateway's PORTAL_URL): the owner console the default approval_url opens. */
  PORTAL_URL: z
    .url()
    .default(`${defaultUrlOf('gateway')}/app`)
    .transform((v) => v.replace(/\/+$/, '')),
  /**
   * The reminders' approval_url (and owner e-mails' approval_url variable): {property_id}, {domain_id}
   * and {domain_name} are filled in. Unset: the owner console's sign-in for the domain (ownerConsoleApprovalUrl).
   */
  ACTIVATION_APPROVAL_URL: z.string().min(1).optional(),
  /** How long a built answer may serve: each answer checks the property's change stamp, so this only drops idle entries. */
  WIDGET_SETTINGS_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  /** Settings answers kept at most (property × regime); the oldest goes first. */
  WIDGET_SETTINGS_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).default(50_000),
  ...scannerConfig,
  ...importsConfig,
};
export type DomainsConfig = ConfigOf<typeof domainsConfig>;

/** The default approval_url: the owner console's sign-in page for the domain, where the owner asks for a link. */
export const ownerConsoleApprovalUrl = (portalUrl: string) => `${portalUrl}/owner/sign-in?domain={domain_id}`;

/** ACTIVATION_APPROVAL_URL, or the owner console when it is unset. */
export const approvalUrlTemplateOf = (config: Pick<DomainsConfig, 'ACTIVATION_APPROVAL_URL' | 'PORTAL_URL'>) =>
  config.ACTIVATION_APPROVAL_URL ?? ownerConsoleApprovalUrl(config.PORTAL_URL);

export const instanceSettings = (config: DomainsConfig): InstanceSettings => ({
  widgetBaseUrl: config.WIDGET_BASE_URL,
  instance: {
    id: config.INSTANCE_ID,
    name: config.INSTANCE_NAME,
    hostname: config.INSTANCE_HOSTNAME,
    region: config.INSTANCE_REGION,
  },
  systemSegmentId: config.SYSTEM_SEGMENT_ID,
  widgetVersion: config.WIDGET_VERSION,
  approvalUrlTemplate: approvalUrlTemplateOf(config),
});
