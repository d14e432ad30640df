import type { QueuedMail } from '@platform/mail';

/** The portal's sign-in pages: the partner portal's, and the owner console's (same web app, another audience). */
export const PARTNER_SIGN_IN_PAGE = '/sign-in';
export const OWNER_SIGN_IN_PAGE = '/owner/sign-in';

/** The link the portal's sign-in page redeems (the token after # never reaches a server log). */
export const signInUrl = (portalUrl: string, token: string, page = PARTNER_SIGN_IN_PAGE) =>
  `${portalUrl.replace(/\/+$/, '')}${page}#token=${token}`;

/** A sign-in link e-mail: an invitation for a new user, a plain sign-in link otherwise. */
export function signInMail(input: {
  partnerId: string;
  partnerName: string;
  to: string;
  url: string;
  invitation: boolean;
}): QueuedMail {
  const subject = input.invitation
    ? `You are invited to ${input.partnerName}'s partner portal`
    : `Your sign-in link for ${input.partnerName}'s partner portal`;
  const opening = input.invitation
    ? `You have been invited to the partner portal of ${input.partnerName}.`
    : `Someone (hopefully you) asked to sign in to the partner portal of ${input.partnerName}.`;
  const text = `${opening}

Sign in with this link (it works once, for 15 minutes):
${input.url}

If you did not ask for it, ignore this e-mail: nothing happens without the link.
`;
  return {
    partnerId: input.partnerId,
    kind: input.invitation ? 'portal.invitation' : 'portal.sign_in',
    to: input.to,
    subject: subject.replace(/[\r\n]+/g, ' '),
    text,
  };
}

/** A sign-in link to a customer's account console, asked for on its sign-in page: branded with the partner's name. */
export function ownerSignInMail(input: {
  partnerId: string;
  partnerName: string;
  to: string;
  url: string;
  hostname: string;
}): QueuedMail {
  const text = `Someone (hopefully you) asked to sign in to your account console at ${input.partnerName}, for ${input.hostname}.

Sign in with this link (it works once, for 15 minutes):
${input.url}

If you did not ask for it, ignore this e-mail: nothing happens without the link.
`;
  return {
    partnerId: input.partnerId,
    kind: 'owner.sign_in',
    to: input.to,
    subject: `${input.partnerName}: your sign-in link to your account console`.replace(/[\r\n]+/g, ' '),
    text,
  };
}
