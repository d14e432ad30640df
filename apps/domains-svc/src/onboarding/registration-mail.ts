import type { QueuedMail } from '@platform/mail';

/** The confirmation page the gateway serves; the token after # never reaches a server log. */
export const confirmUrl = (widgetBaseUrl: string, partnerId: string, token: string) =>
  `${widgetBaseUrl.replace(/\/+$/, '')}/widget/v1/onboarding/confirm#partner=${encodeURIComponent(partnerId)}&token=${token}`;

/** The registration widget's e-mail: the link that registers the website, branded with the partner's name. */
export function registrationMail(input: {
  partnerId: string;
  partnerName: string;
  to: string;
  firstName: string;
  hostname: string;
  url: string;
}): QueuedMail {
  const text = `Hello ${input.firstName},

You asked ${input.partnerName} to register ${input.hostname}. Confirm it with this link (it works for 24 hours):
${input.url}

If you did not ask for it, ignore this e-mail: nothing is registered without the link.

${input.partnerName}
`;
  return {
    partnerId: input.partnerId,
    kind: 'registration.confirm',
    to: input.to,
    subject: `${input.partnerName}: confirm the registration of ${input.hostname}`.replace(/[\r\n]+/g, ' '),
    text,
  };
}
