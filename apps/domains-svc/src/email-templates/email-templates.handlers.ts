import type { InternalCaller } from '@platform/auth';
import type { emailTemplateRoutes } from '@platform/contracts';
import { reply, type Handlers } from '@platform/http';
import type { DomainsContext } from '../context';
import {
  getTemplate,
  listTemplates,
  previewTemplate,
  resetTemplate,
  saveTemplate,
  sendTestMail,
  signedInUser,
} from './email-templates.service';
import { rememberPartnerName } from '../domains/mail/partner-name';

/** The partner's owner e-mail templates (portal users only). */
export function emailTemplateHandlers(
  ctx: Pick<DomainsContext, 'db'>,
): Handlers<(typeof emailTemplateRoutes)[number], InternalCaller> {
  /** Only a portal user (see signedInUser); the partner's name in the token is kept for owner e-mails. */
  const signedIn = async (caller: InternalCaller) => {
    signedInUser(caller);
    await rememberPartnerName(ctx.db, caller);
  };
  return {
    listEmailTemplates: async ({ caller }) => {
      await signedIn(caller);
      return { result: await listTemplates(ctx.db, caller.partnerId) };
    },
    getEmailTemplate: async ({ caller, params }) => {
      await signedIn(caller);
      return { result: await getTemplate(ctx.db, caller.partnerId, params.kind) };
    },
    putEmailTemplate: async ({ caller, params, body }) => {
      await signedIn(caller);
      return { result: await saveTemplate(ctx.db, caller.partnerId, params.kind, body) };
    },
    resetEmailTemplate: async ({ caller, params }) => {
      await signedIn(caller);
      return { result: await resetTemplate(ctx.db, caller.partnerId, params.kind) };
    },
    previewEmailTemplate: async ({ caller, params, body }) => {
      await signedIn(caller);
      return { result: await previewTemplate(params.kind, body) };
    },
    sendTestEmailTemplate: async ({ caller, params }) => {
      await signedIn(caller);
      return reply(202, { result: await sendTestMail(ctx.db, caller, params.kind) });
    },
  };
}
