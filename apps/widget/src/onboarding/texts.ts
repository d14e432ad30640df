// What the onboarding widgets say when a call fails: one table, by the contract's error codes.
import type { Answer } from './api';

const BY_CODE: Record<string, string> = {
  'RATE.LIMITED': 'Too many attempts from here. Please try again in a few minutes.',
  'WIDGET.DISABLED': 'This form is not available right now.',
  'WIDGET.ORIGIN_NOT_ALLOWED': 'This form is not available on this page.',
  'REGISTRATION.LINK_INVALID': 'This link is invalid or has expired. Please register your website again.',
  'DOMAIN.ALREADY_EXISTS': 'This website is already registered.',
  'VALIDATION.INVALID': 'Please check what you entered.',
};

export function failureText(answer: Answer<unknown>): string {
  if (answer.ok) return '';
  if (answer.status === 0) return 'We could not reach the server. Please check your connection and try again.';
  return (answer.error && BY_CODE[answer.error.code]) || 'Something went wrong. Please try again later.';
}

/** The confirmation page's failure: a link without its token, or naming no partner, is as good as an invalid one. */
export const confirmFailure = (answer: Answer<unknown>): string =>
  !answer.ok && answer.status === 404 ? BY_CODE['REGISTRATION.LINK_INVALID'] : failureText(answer);
