// The property's look (primary_color, text_color, font, radius, position), made safe: values are
// validated before they reach CSS, and colours are adjusted so text keeps a 4.5:1 contrast.
import type { WidgetSettings } from '@platform/contracts';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

function rgb(hex: string): number[] {
  const h = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (d) => d + d).slice(1) : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Darkens a colour until white text on it reaches 4.5:1 (or black text does, if better). */
export function buttonColors(primary: string): { bg: string; fg: string } {
  if (contrast(primary, '#000000') >= 4.5 && contrast(primary, '#000000') > contrast(primary, '#ffffff'))
    return { bg: primary, fg: '#000000' };
  let [r, g, b] = rgb(primary);
  let bg = primary;
  while (contrast(bg, '#ffffff') < 4.5) {
    [r, g, b] = [r, g, b].map((v) => Math.floor(v * 0.9));
    bg = '#' + [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');
  }
  return { bg, fg: '#ffffff' };
}

export interface Theme {
  vars: string;
  position: 'left' | 'right';
}

export function theme(s: WidgetSettings): Theme {
  const primary = s.primary_color && HEX.test(s.primary_color) ? s.primary_color : '#1a56db';
  const { bg, fg } = buttonColors(primary);
  const text =
    s.text_color && HEX.test(s.text_color) && contrast(s.text_color, '#ffffff') >= 4.5 ? s.text_color : '#1f2937';
  const font = s.widget_font && /^[\w\s,'"-]{1,80}$/.test(s.widget_font) ? s.widget_font + ',' : '';
  const radius = s.border_radius && /^\d{1,2}(\.\d+)?(px|rem|em)$/.test(s.border_radius) ? s.border_radius : '8px';
  const vars =
    ':host{--pw-primary:' +
    bg +
    ';--pw-on-primary:' +
    fg +
    ';--pw-text:' +
    text +
    ';--pw-font:' +
    font +
    'system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;--pw-radius:' +
    radius +
    '}';
  return { vars, position: /left/i.test(s.widget_position || '') ? 'left' : 'right' };
}
