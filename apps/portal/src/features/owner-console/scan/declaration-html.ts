// The cookie declaration as HTML to paste into a privacy or cookie policy: plain, semantic markup with
// every value escaped, and no styles or scripts of ours (the site's own styles apply).
import type { CookieDeclaration } from '@platform/contracts';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const row = (cells: string[], tag = 'td') => `<tr>${cells.map((c) => `<${tag}>${escape(c)}</${tag}>`).join('')}</tr>`;

/** `date` writes the scan's date as the screen does (ui/misc's formatDate). */
export function declarationHtml(d: CookieDeclaration, date: (iso: string) => string): string {
  const parts = [
    `<section class="cookie-declaration">`,
    `<h2>Cookies on ${escape(d.hostname)}</h2>`,
    d.scanned_at ? `<p>Last checked on ${escape(date(d.scanned_at))}.</p>` : '',
  ];
  for (const c of d.categories) {
    parts.push(`<h3>${escape(c.label)}</h3>`, `<p>${escape(c.description)}</p>`);
    if (c.cookies.length === 0) {
      parts.push('<p>None.</p>');
      continue;
    }
    parts.push(
      '<table>',
      `<thead>${row(['Cookie', 'Domain', 'Provider', 'Type', 'Duration'], 'th')}</thead>`,
      '<tbody>',
      ...c.cookies.map((k) =>
        row([k.name, k.domain, k.vendor ?? '', k.first_party ? 'First party' : 'Third party', k.duration]),
      ),
      '</tbody>',
      '</table>',
    );
  }
  parts.push('</section>');
  return parts.filter(Boolean).join('\n');
}
