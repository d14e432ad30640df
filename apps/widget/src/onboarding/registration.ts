// The registration widget: a partner embeds it on its own pages
//   <div data-onboarding-registration></div>
//   <script src="https://<gateway>/widget/v1/onboarding/registration.js" data-partner="<partnerId>"
//           data-merchant="<optional merchant id>" async></script>
// and its customer registers a website there: the form is sent, the customer confirms by the
// e-mailed link, which opens the confirmation page (this script again, data-mode="confirm").
import type { RegistrationBody, RegistrationConfirmed, RequiredField } from '@platform/contracts';
import { el } from '../widget/dom';
import { OnboardingApi, type Answer } from './api';
import { fieldErrorsOf, Form, type FieldSpec } from './form';
import { currentEmbed, mount, whenReady, type Embed } from './host';
import { confirmFailure, failureText } from './texts';

// document.currentScript is this script only while it first runs.
const self = document.currentScript as HTMLScriptElement | null;
const embed = currentEmbed();
if (self && self.getAttribute('data-mode') === 'confirm') whenReady(() => confirmFromLink(self));
else if (embed) whenReady(() => start(embed));

function fields(required: RequiredField[]): FieldSpec[] {
  return [
    {
      name: 'domain',
      label: 'Website',
      inputmode: 'url',
      autocomplete: 'url',
      required: true,
      hint: 'e.g. shop.example.com',
    },
    { name: 'company_name', label: 'Company name', autocomplete: 'organization', required: true },
    { name: 'account_first_name', label: 'First name', autocomplete: 'given-name', required: true },
    { name: 'account_last_name', label: 'Last name', autocomplete: 'family-name', required: true },
    { name: 'account_email', label: 'E-mail address', type: 'email', autocomplete: 'email', required: true },
    {
      name: 'phone_number',
      label: 'Phone number',
      type: 'tel',
      autocomplete: 'tel',
      required: required.indexOf('phone_number') >= 0,
    },
    { name: 'country', label: 'Country', autocomplete: 'country', maxlength: 2, hint: 'Two-letter code, e.g. DE' },
  ];
}

async function start(embed: Embed): Promise<void> {
  const api = new OnboardingApi(embed.origin, embed.partnerId);
  const config = await api.config('registration');
  // Not allowed on this page, turned off or unreachable: the page carries on without the widget.
  if (!config.ok) return;
  const shadow = mount(embed, 'registration', config.result.primary_color);
  const box = el('section', { class: 'ow', 'aria-labelledby': 'ow-reg-title' });
  box.append(
    el('h2', { id: 'ow-reg-title' }, 'Register your website'),
    el('p', { class: 'by' }, 'With ' + config.result.partner_name + '. We e-mail you a link to confirm.'),
  );
  const merchant = embed.script.getAttribute('data-merchant');
  const form: Form = new Form('ow-reg', fields(config.result.required_fields), 'Register', (values) =>
    send(api, form, box, { ...values, ...(merchant ? { merchant_id: merchant } : {}) } as RegistrationBody),
  );
  box.append(form.element);
  shadow.append(box);
}

async function send(api: OnboardingApi, form: Form, box: HTMLElement, body: RegistrationBody): Promise<void> {
  form.busy(true, 'Sending…');
  const sent = await api.send<{ email: string }>('POST', 'registrations', body);
  form.busy(false);
  if (sent.ok) return done(box, sent.result.email);
  const fieldErrors = fieldErrorsOf(sent.error);
  if (sent.error && sent.error.code === 'DOMAIN.ALREADY_EXISTS') fieldErrors.domain = 'is already registered';
  if (Object.keys(fieldErrors).length > 0) form.showErrors(fieldErrors);
  else form.showAlert(failureText(sent));
}

function done(box: HTMLElement, email: string): void {
  const title = el('h2', { id: 'ow-reg-title', tabindex: -1 }, 'Check your e-mail');
  box.replaceChildren(
    title,
    el('p', { role: 'status' }, 'We sent a link to ' + email + '. Open it within 24 hours to register your website.'),
  );
  title.focus();
}

/** The confirmation page: the link's token (after #) is sent once, then dropped from the address bar. */
async function confirmFromLink(script: HTMLScriptElement): Promise<void> {
  const params = new URLSearchParams(location.hash.slice(1));
  const partner = params.get('partner') || '';
  const token = params.get('token') || '';
  history.replaceState(null, '', location.pathname);
  const host = document.querySelector<HTMLElement>('[data-onboarding-confirm]') || document.body;
  const page: Embed = { partnerId: partner, origin: location.origin, script };
  const status = el('p', { role: 'status' }, 'Confirming your registration…');
  let box = el('section', { class: 'ow' }, el('h1', {}, 'Confirm your registration'), status);
  mount(page, 'registration', null, host).append(box);
  const answer: Answer<RegistrationConfirmed> =
    partner && token
      ? await new OnboardingApi(location.origin, partner).send('POST', 'registrations/confirm', { token })
      : { ok: false, status: 404 };
  const shadow = mount(page, 'registration', answer.ok ? answer.result.partner.primary_color : null, host);
  box = answer.ok ? registered(answer.result) : failed(answer);
  shadow.append(box);
  const heading = box.querySelector<HTMLElement>('h1');
  if (heading) heading.focus();
}

function registered(site: RegistrationConfirmed): HTMLElement {
  return el(
    'section',
    { class: 'ow' },
    el('h1', { tabindex: -1 }, 'Your website is registered'),
    el('p', { role: 'status' }, site.hostname + ' is registered with ' + site.partner.name + '.'),
    el('h2', {}, 'Install the privacy widget'),
    el('p', {}, 'Paste this snippet first in the <head> of every page of your website:'),
    el('pre', { 'aria-label': 'Widget snippet', tabindex: 0 }, site.privacy_widget),
    el(
      'p',
      {},
      el('a', { href: site.approval_url }, 'Open your account console'),
      ' to check the installation and choose the widget’s look.',
    ),
  );
}

function failed(answer: Answer<unknown>): HTMLElement {
  return el(
    'section',
    { class: 'ow' },
    el('h1', { tabindex: -1 }, 'Your website is not registered'),
    el('p', { role: 'alert' }, confirmFailure(answer)),
  );
}
