// The owner console's pure parts: the preview's copy of the widget's theme rules (apps/widget/src/widget/
// theme.ts: keep both in step), the appearance and company forms' partial bodies, and the cookie
// declaration's HTML (escaped: a scanned cookie's name is the site's text, not ours).
import type { CookieDeclaration, InstanceCompany } from '@platform/contracts';
import {
  changesOf as appearanceChanges,
  draftOf,
  presetOf,
  radiusPx,
  type InstanceProperty,
} from '../src/features/owner-console/appearance/draft';
import { widgetLook } from '@platform/contracts';
import {
  changesOf as companyChanges,
  countryName,
  draftOf as companyDraft,
} from '../src/features/owner-console/company/company-form';
import { declarationHtml } from '../src/features/owner-console/scan/declaration-html';

const look = {
  primary_color: '#1a56db',
  text_color: '#1f2937',
  widget_font: '',
  border_radius: '8px',
  widget_position: 'BOTTOM_RIGHT',
};

describe('the appearance preview', () => {
  it('when the values are valid, then it uses them as the widget does (white text on a dark colour)', () => {
    expect(
      widgetLook({
        ...look,
        primary_color: '#0a7a3b',
        border_radius: '2rem',
        widget_position: 'BOTTOM_LEFT',
        widget_font: 'Georgia, serif',
      }),
    ).toEqual({
      primary: '#0a7a3b',
      onPrimary: '#ffffff',
      text: '#1f2937',
      font: 'Georgia, serif,system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif',
      radius: '2rem',
      position: 'left',
    });
  });

  it('when a colour is light, then the buttons get black text; a text colour too light on white is replaced', () => {
    expect(widgetLook({ ...look, primary_color: '#ffd700', text_color: '#aaaaaa' })).toMatchObject({
      primary: '#ffd700',
      onPrimary: '#000000',
      text: '#1f2937',
    });
  });

  it('when values are invalid, then the widget’s defaults stand in for them', () => {
    expect(
      widgetLook({
        primary_color: 'blue',
        text_color: '',
        widget_font: 'x;y',
        border_radius: '100px',
        widget_position: '',
      }),
    ).toMatchObject({
      primary: '#1a56db',
      text: '#1f2937',
      font: 'system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif',
      radius: '8px',
      position: 'right',
    });
  });
});

describe('the appearance form', () => {
  const saved = {
    ...look,
    has_scripts: true,
    has_dsar: true,
    has_docs: true,
    has_accessibility: true,
    has_accessibility_icon: false,
    display_dpo: true,
    display_company: true,
    has_welcome_message: false,
    has_continuous_scanning: false,
  } as InstanceProperty;

  it('when fields change, then the body holds only those', () => {
    expect(appearanceChanges({ ...draftOf(saved), primary_color: '#000', has_dsar: false }, saved)).toEqual({
      primary_color: '#000',
      has_dsar: false,
    });
    expect(appearanceChanges(draftOf(saved), saved)).toEqual({});
  });

  it('reads a radius in pixels and a font as its preset', () => {
    expect([radiusPx('8px'), radiusPx('1.5rem'), radiusPx('12'), radiusPx('oops')]).toEqual([8, 24, 12, 8]);
    expect([presetOf(''), presetOf('Georgia, serif'), presetOf('Inter, sans-serif')]).toEqual([
      'system-ui',
      'Georgia, serif',
      'custom',
    ]);
  });
});

describe('the company form', () => {
  const saved: InstanceCompany = {
    id: 'comp_4',
    name: 'Shop 4 GmbH',
    email: 'owner4@example.com',
    address: { country: 'DE', city: 'Berlin', address: 'Hauptstr. 1', postal_code: '10115', phone_number: '' },
    owner: { id: 'own_4', email: 'owner4@example.com', first_name: 'Olga', last_name: 'Owner' },
    dpo: { name: 'Privacy team', email: null },
  };

  it('when fields change, then the body nests them as the contract does; a blank country is left out', () => {
    const draft = { ...companyDraft(saved), name: 'Shop Four', city: 'Hamburg', country: '', last_name: 'Ortiz' };
    expect(companyChanges(draft, saved)).toEqual({
      name: 'Shop Four',
      address: { city: 'Hamburg' },
      owner: { last_name: 'Ortiz' },
    });
    expect(companyChanges(companyDraft(saved), saved)).toEqual({});
  });

  it('when the DPO changes, then dpo holds only what changed; an emptied field is null', () => {
    const draft = { ...companyDraft(saved), dpo_name: ' ', dpo_email: 'dpo@example.com' };
    expect(companyChanges(draft, saved)).toEqual({ dpo: { name: null, email: 'dpo@example.com' } });
    expect(
      companyChanges({ ...companyDraft({ ...saved, dpo: null }), dpo_name: 'Ada' }, { ...saved, dpo: null }),
    ).toEqual({
      dpo: { name: 'Ada' },
    });
  });

  it('names a country by its code', () => {
    expect([countryName('de'), countryName('XX'), countryName('Germany')]).toEqual(['Germany', undefined, undefined]);
  });
});

describe('the cookie declaration as HTML', () => {
  it('escapes what the site set, and writes a table per category that has cookies', () => {
    const d: CookieDeclaration = {
      domain_id: 'dom_1',
      hostname: 'shop.example.com',
      scanned_at: '2026-11-24T12:00:00Z',
      categories: [
        { category: 'necessary', label: 'Necessary', description: 'Needed.', cookies: [] },
        {
          category: 'marketing',
          label: 'Marketing',
          description: 'Ads & more.',
          cookies: [
            {
              name: '<img src=x onerror=alert(1)>',
              domain: 'ads.example',
              vendor: 'A "quoted" Co',
              first_party: false,
              duration: '1 year',
            },
          ],
        },
      ],
    };
    const html = declarationHtml(d, () => '24 Nov 2026');
    expect(html).toContain('<p>Last checked on 24 Nov 2026.</p>');
    expect(html).toContain('<h3>Necessary</h3>\n<p>Needed.</p>\n<p>None.</p>');
    expect(html).toContain('<p>Ads &amp; more.</p>');
    expect(html).toContain(
      '<td>&lt;img src=x onerror=alert(1)&gt;</td><td>ads.example</td><td>A &quot;quoted&quot; Co</td><td>Third party</td><td>1 year</td>',
    );
    expect(html).not.toContain('<img');
    expect(html.match(/<table>/g)).toHaveLength(1);
  });
});
