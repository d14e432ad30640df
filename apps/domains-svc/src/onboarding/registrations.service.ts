import { approvalUrl } from '../domains/mail/owner-mail';
import { randomUUID } from 'node:crypto';
import {
  createDomainBodySchema,
  type OnboardingPartner,
  type RegisteredSite,
  type RegistrationBody,
} from '@platform/contracts';
import { inTransaction, SharedTransaction } from '@platform/db';
import { enqueueMail } from '@platform/mail';
import { AppError } from '@platform/http';
import type { DomainsContext } from '../context';
import type { DomainsDb } from '../db/tables';
import { createDomain } from '../domains/domain/create-domain.service';
import { assertRequiredFields } from '../domains/domain/domain-rules';
import { widgetScript } from '../domains/domain/widget-snippet';
import { rememberPartnerName } from '../domains/mail/partner-name';
import { findPartnerDomainId, onboardingCaller } from './onboarding-partner';
import { confirmUrl, registrationMail } from './registration-mail';
import { hashToken, newToken } from '@platform/auth';
import {
  findRegistrationForUpdate,
  insertRegistration,
  markRegistrationConfirmed,
  recentRegistrationTimes,
  type RegistrationRow,
} from './registrations.repository';

/** How long a confirmation link works. */
export const REGISTRATION_LINK_TTL_MS = 24 * 3_600_000;
/** Links one address may be sent per partner within THROTTLE_WINDOW_MS: a form cannot flood a mailbox. */
export const LINKS_PER_ADDRESS = 3;
const THROTTLE_WINDOW_MS = 3_600_000;

const linkInvalid = () => new AppError('REGISTRATION.LINK_INVALID');
/** A hostname the partner has: 409, without naming its domain to a stranger. */
const alreadyRegistered = () => new AppError('DOMAIN.ALREADY_EXISTS', 'This website is already registered.');

/**
 * A registration: checked against the partner's required fields and domains, throttled per
 * address, then kept (its token only as a hash) with its confirmation e-mail, in one transaction.
 */
export async function storeRegistration(
  ctx: Pick<DomainsContext, 'db' | 'settings'>,
  partner: OnboardingPartner,
  registration: RegistrationBody,
  now = new Date(),
): Promise<{ email: string; expires_at: string }> {
  assertRequiredFields(registration, partner.required_fields);
  await rememberPartnerName(ctx.db, onboardingCaller(partner, 'WIDGET_REGISTRATION').internal);
  const token = newToken();
  const expiresAt = new Date(now.getTime() + REGISTRATION_LINK_TTL_MS);
  await inTransaction(ctx.db, async (trx) => {
    if (await findPartnerDomainId(trx, partner.id, registration.domain)) throw alreadyRegistered();
    const email = registration.account_email;
    const recent = await recentRegistrationTimes(trx, partner.id, email, new Date(now.getTime() - THROTTLE_WINDOW_MS));
    if (recent.length >= LINKS_PER_ADDRESS) {
      const seconds = Math.max(1, Math.ceil((recent[0].getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000));
      throw new AppError(
        'RATE.LIMITED',
        'Too many confirmation links were sent to this address; try again later.',
        { retry_after: seconds },
        { 'Retry-After': String(seconds) },
      );
    }
    const tokenHash = hashToken(token);
    const row = { id: randomUUID(), partnerId: partner.id, tokenHash, email, expiresAt };
    await insertRegistration(trx, { ...row, hostname: registration.domain, input: registration });
    const url = confirmUrl(ctx.settings.widgetBaseUrl, partner.id, token);
    await enqueueMail<DomainsDb>(trx, [
      registrationMail({
        partnerId: partner.id,
        partnerName: partner.name,
        to: email,
        firstName: registration.account_first_name,
        hostname: registration.domain,
        url,
      }),
    ]);
  });
  return { email: registration.account_email, expires_at: expiresAt.toISOString() };
}

/**
 * The link is opened: the registration's domain is made by the create's own use case (source
 * WIDGET_REGISTRATION, the partner's onboarding settings, merchant link, domain.created), and
 * noted on the registration in the same transaction. The registration's row lock makes a second
 * opening (at once or later) wait and find the domain made: it answers the same, making nothing.
 */
export async function confirmRegistration(
  ctx: DomainsContext,
  partner: OnboardingPartner,
  token: string,
  now = new Date(),
): Promise<RegisteredSite> {
  await rememberPartnerName(ctx.db, onboardingCaller(partner, 'WIDGET_REGISTRATION').internal);
  const shared = new SharedTransaction(ctx.db);
  try {
    const site = await shared.run(async () => {
      const row = await findRegistrationForUpdate(ctx.db, partner.id, hashToken(token));
      if (!row) throw linkInvalid();
      if (row.domain_id && row.property_id)
        return siteOf(ctx, { id: row.domain_id, hostname: row.hostname, property_id: row.property_id });
      if (row.expires_at.getTime() <= now.getTime()) throw linkInvalid();
      return register(ctx, partner, row, now);
    });
    await shared.commit();
    return site;
  } catch (err) {
    await shared.rollback();
    throw err;
  }
}

async function register(ctx: DomainsContext, partner: OnboardingPartner, row: RegistrationRow, now: Date) {
  // Parsed again with the create's schema: its defaults (widget flags, CREATE_SILENT) fill the rest.
  const body = createDomainBodySchema.parse(row.input);
  const created = await createDomain(ctx, onboardingCaller(partner, 'WIDGET_REGISTRATION').caller, body).catch(
    (err: unknown) => {
      throw err instanceof AppError && err.code === 'DOMAIN.ALREADY_EXISTS' ? alreadyRegistered() : err;
    },
  );
  await markRegistrationConfirmed(ctx.db, row.id, { domainId: created.id, propertyId: created.property_id, at: now });
  return siteOf(ctx, { id: created.id, hostname: row.hostname, property_id: created.property_id });
}

/** The registered site, with the snippet and where its owner signs in to the console (the activation link). */
const siteOf = (
  ctx: Pick<DomainsContext, 'settings'>,
  domain: { id: string; hostname: string; property_id: string },
): RegisteredSite => ({
  hostname: domain.hostname,
  privacy_widget: widgetScript(ctx.settings.widgetBaseUrl, domain.property_id),
  approval_url: approvalUrl(ctx.settings.approvalUrlTemplate, domain),
});
