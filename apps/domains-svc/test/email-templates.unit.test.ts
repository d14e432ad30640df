import { EMAIL_TEMPLATE_KINDS } from '@platform/contracts';
import { DEFAULT_TEMPLATES } from '../src/domains/mail/default-templates';
import { exampleValues, htmlToText, renderTemplate, templateIssues } from '../src/domains/mail/template-engine';

describe('e-mail template engine', () => {
  it.each(EMAIL_TEMPLATE_KINDS)('when the default %s template is checked, then it has no issue', async (kind) => {
    expect(await templateIssues(kind, DEFAULT_TEMPLATES[kind])).toEqual([]);
  });

  it.each([
    '{% for i in (1..100000000) %}{{ i }}{% endfor %}',
    '{% for i in (1..3000) %}{% for j in (1..3000) %}x{% endfor %}{% endfor %}',
  ])('when a template loops to hold the service up (%s), then it is refused, not rendered', async (body) => {
    const issues = await templateIssues('INTRO', { subject: 'x', body });
    expect(issues).toEqual([{ path: 'body.body', message: expect.stringMatching(/^cannot be rendered: .*limit/) }]);
  });

  it('when a value holds CR/LF, then the rendered subject is still one line', async () => {
    const mail = await renderTemplate(
      { subject: 'About {{ company_name }}', body: '<p>{{ company_name }}</p>' },
      { ...exampleValues('INTRO'), company_name: 'Evil\r\nBcc: victim@example.com' },
    );
    expect(mail.subject).toBe('About Evil Bcc: victim@example.com');
  });

  it('when a value holds HTML, then the HTML part shows it escaped and the text part as typed', async () => {
    const mail = await renderTemplate(
      { subject: 'Hi {{ owner_first_name }}', body: '<p>Hi {{ owner_first_name }}</p>' },
      { ...exampleValues('INTRO'), owner_first_name: '<script>alert(1)</script>' },
    );
    expect(mail.subject).toBe('Hi <script>alert(1)</script>');
    expect(mail.html).toBe('<p>Hi &lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(mail.text).toBe('Hi <script>alert(1)</script>');
  });

  it('when HTML is turned into text, then paragraphs are blank-line separated, list items dashed, links keep their address and <pre> its lines', () => {
    expect(
      htmlToText(
        '<h1>Title</h1>\n<p>One\n  two</p><ul><li>a</li><li>b</li></ul><p>Go <a href="https://x.test/">here</a> or <a href="https://y.test/">https://y.test/</a><br>next</p><pre>  line 1\n  line 2</pre><style>p{}</style>',
      ),
    ).toBe('Title\n\nOne two\n\n- a\n- b\n\nGo here (https://x.test/) or https://y.test/\nnext\n\n  line 1\n  line 2');
  });
});
