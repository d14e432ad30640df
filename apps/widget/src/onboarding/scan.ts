// The scan widget: a partner embeds it on its own pages
//   <div data-onboarding-scan></div>
//   <script src="https://<gateway>/widget/v1/onboarding/scan.js" data-partner="<partnerId>" async></script>
// and a visitor scans a website there: the site is scanned, the visitor sees the summary, and the
// full report is e-mailed. The partner sees the site as a lead.
import type { WidgetScanBody, WidgetScanSummary, WidgetScanView } from '@platform/contracts';
import { el } from '../widget/dom';
import { OnboardingApi } from './api';
import { fieldErrorsOf, Form } from './form';
import { currentEmbed, mount, whenReady, type Embed } from './host';
import { failureText } from './texts';

/** How often the widget asks, and for how long, before it leaves the rest to the e-mail. */
const POLL_MS = 2_000;
const GIVE_UP_MS = 5 * 60_000;

const embed = currentEmbed();
if (embed) whenReady(() => start(embed));

async function start(embed: Embed): Promise<void> {
  const api = new OnboardingApi(embed.origin, embed.partnerId);
  const config = await api.config('scan');
  // Not allowed on this page, turned off or unreachable: the page carries on without the widget.
  if (!config.ok) return;
  const shadow = mount(embed, 'scan', config.result.primary_color);
  const box = el('section', { class: 'ow', 'aria-labelledby': 'ow-scan-title' });
  box.append(
    el('h2', { id: 'ow-scan-title' }, 'Scan your website'),
    el(
      'p',
      { class: 'by' },
      'With ' + config.result.partner_name + '. See the cookies and trackers it uses; we e-mail you the full report.',
    ),
  );
  const fields = [
    {
      name: 'url',
      label: 'Website',
      inputmode: 'url',
      autocomplete: 'url',
      required: true,
      hint: 'e.g. shop.example.com',
    },
    { name: 'email', label: 'E-mail address', type: 'email', autocomplete: 'email', required: true },
  ];
  const form: Form = new Form('ow-scan', fields, 'Scan website', (values) =>
    send(api, form, box, values as unknown as WidgetScanBody),
  );
  box.append(form.element);
  shadow.append(box);
}

async function send(api: OnboardingApi, form: Form, box: HTMLElement, body: WidgetScanBody): Promise<void> {
  form.busy(true, 'Starting the scan…');
  const started = await api.send<{ token: string; hostname: string }>('POST', 'scans', body);
  form.busy(false);
  if (!started.ok) {
    const fieldErrors = fieldErrorsOf(started.error);
    return Object.keys(fieldErrors).length > 0 ? form.showErrors(fieldErrors) : form.showAlert(failureText(started));
  }
  const { token, hostname } = started.result;
  const title = el('h2', { id: 'ow-scan-title', tabindex: -1 }, 'Scanning ' + hostname);
  const status = el('p', { role: 'status' }, 'Scanning… this can take a minute.');
  const result = el('div');
  box.setAttribute('data-scan-status', 'queued');
  box.replaceChildren(title, status, result);
  title.focus();
  follow(api, token, box, { title, status, result, email: body.email }, Date.now() + GIVE_UP_MS);
}

interface View {
  title: HTMLElement;
  status: HTMLElement;
  result: HTMLElement;
  email: string;
}

/** Asks for the scan until it ends (or GIVE_UP_MS passed: the e-mail will still come). */
function follow(api: OnboardingApi, token: string, box: HTMLElement, view: View, until: number): void {
  const next = () => setTimeout(() => follow(api, token, box, view, until), POLL_MS);
  api.send<WidgetScanView>('GET', 'scans/' + encodeURIComponent(token)).then((answer) => {
    if (!answer.ok) {
      if (answer.status === 0 && Date.now() < until) return void next();
      view.status.textContent = failureText(answer);
      return;
    }
    const scan = answer.result;
    box.setAttribute('data-scan-status', scan.status);
    if (scan.status === 'completed' && scan.summary) return show(scan.hostname, scan.summary, view);
    if (scan.status === 'failed') {
      view.title.textContent = 'Could not scan ' + scan.hostname;
      view.status.textContent =
        'We could not scan ' + scan.hostname + ': the site did not answer. Please try again later.';
      return;
    }
    if (Date.now() < until) next();
    else
      view.status.textContent =
        'The scan takes longer than usual. We will e-mail you the report to ' + view.email + '.';
  });
}

function show(hostname: string, s: WidgetScanSummary, view: View): void {
  const count = (n: number, one: string, many: string) => n + ' ' + (n === 1 ? one : many);
  view.title.textContent = 'Scan of ' + hostname;
  view.result.replaceChildren(
    el(
      'dl',
      {},
      el('dt', {}, 'Pages scanned'),
      el('dd', {}, String(s.pages)),
      el('dt', {}, 'Cookies'),
      el('dd', {}, String(s.cookies)),
      el('dt', {}, 'Trackers'),
      el('dd', {}, String(s.trackers)),
    ),
    el('h3', {}, 'By category'),
    el('ul', {}, ...s.categories.map((c) => el('li', {}, c.label + ': ' + count(c.count, 'item', 'items')))),
    el('h3', {}, 'Third parties'),
    s.third_parties.length > 0
      ? el('ul', {}, ...s.third_parties.map((name) => el('li', {}, name)))
      : el('p', {}, 'No known third parties were found.'),
  );
  view.status.textContent = 'The scan of ' + hostname + ' is done. We e-mailed the full report to ' + view.email + '.';
}
