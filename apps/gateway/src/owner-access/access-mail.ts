import type { QueuedMail } from '@platform/mail';

/** The invitation to a customer's account console, branded with the partner's name (the console is theirs to the customer). */
export function accessInvitationMail(input: {
  partnerId: string;
  partnerName: string;
  to: string;
  url: string;
}): QueuedMail {
  const text = `${input.partnerName} invites you to your account console.

Sign in with this link (it works once, for 15 minutes):
${input.url}

If you did not expect it, ignore this e-mail: nothing happens without the link.
`;
  return {
    partnerId: input.partnerId,
    kind: 'owner.invitation',
    to: input.to,
    subject: `${input.partnerName}: your account console`.replace(/[\r\n]+/g, ' '),
    text,
  };
}
