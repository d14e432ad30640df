// The widget's theme rules (apps/widget/src/widget/theme.ts), so the preview shows what visitors will see:
// an invalid value falls back to the widget's default, a primary colour is darkened until white text on
// it reaches 4.5:1 (or black text is used), and a text colour too light on white is replaced.
// Apps do not import apps: keep the two in step (test/owner-preview-theme.test.ts pins the cases).

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
export const DEFAULT_PRIMARY = '#1a56db';
export const DEFAULT_TEXT = '#1f2937';
const SYSTEM_FONTS = 'system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif';

export const isHex = (value: string) => HEX.test(value.trim());

/** "#abc" -> "#aabbcc" (what <input type=color> takes); an invalid value gives `fallback`. */
export function longHex(value: string, fallback = '#000000'): string {
  const v = value.trim().toLowerCase();
  if (!HEX.test(v)) return fallback;
  return v.length === 4 ? `#${[...v.slice(1)].map((d) => d + d).join('')}` : v;
}

function rgb(hex: string): number[] {
  const h = longHex(hex).slice(1);
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

function buttonColors(primary: string): { bg: string; fg: string } {
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

export interface PreviewLook {
  primary: string;
  onPrimary: string;
  text: string;
  font: string;
  radius: string;
  position: 'left' | 'right';
}

/** The look the widget derives from the property's values (theme() in the widget). */
export function previewLook(p: {
  primary_color: string;
  text_color: string;
  widget_font: string;
  border_radius: string;
  widget_position: string;
}): PreviewLook {
  const primary = isHex(p.primary_color) ? p.primary_color.trim() : DEFAULT_PRIMARY;
  const { bg, fg } = buttonColors(primary);
  const text =
    isHex(p.text_color) && contrast(p.text_color.trim(), '#ffffff') >= 4.5 ? p.text_color.trim() : DEFAULT_TEXT;
  const font = /^[\w\s,'"-]{1,80}$/.test(p.widget_font) ? `${p.widget_font},${SYSTEM_FONTS}` : SYSTEM_FONTS;
  const radius = /^\d{1,2}(\.\d+)?(px|rem|em)$/.test(p.border_radius) ? p.border_radius : '8px';
  return {
    primary: bg,
    onPrimary: fg,
    text,
    font,
    radius,
    position: /left/i.test(p.widget_position) ? 'left' : 'right',
  };
}
