// The widget's look from a property's values (primary_color, text_color, widget_font, border_radius,
// widget_position), made safe: a value is checked before it reaches CSS (an invalid one falls back
// to the default), and colours are adjusted so text keeps a 4.5:1 contrast. The widget draws with
// it and the owner console's preview shows the same, so the two cannot drift. No zod here: the
// widget's bundle imports this file alone (@platform/contracts/widget-look).

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
export const DEFAULT_PRIMARY_COLOR = '#1a56db';
export const DEFAULT_TEXT_COLOR = '#1f2937';
const SYSTEM_FONTS = 'system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif';

export const isHexColor = (value: string | null | undefined): value is string => !!value && HEX.test(value.trim());

/** "#abc" -> "#aabbcc" (what <input type=color> takes); an invalid value gives `fallback`. */
export function longHex(value: string, fallback = '#000000'): string {
  const v = value.trim().toLowerCase();
  if (!HEX.test(v)) return fallback;
  return v.length === 4 ? '#' + v.slice(1).replace(/./g, (d) => d + d) : v;
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

/** The WCAG contrast ratio of two colours. */
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

export interface WidgetLook {
  /** The buttons' colour and the text on them. */
  primary: string;
  onPrimary: string;
  text: string;
  /** A CSS font-family list: the property's font first, then the system fonts. */
  font: string;
  radius: string;
  position: 'left' | 'right';
}

type LookValues = Partial<
  Record<'primary_color' | 'text_color' | 'widget_font' | 'border_radius' | 'widget_position', string | null>
>;

/** The look the widget draws from a property's values. */
export function widgetLook(p: LookValues): WidgetLook {
  const primary = isHexColor(p.primary_color) ? p.primary_color.trim() : DEFAULT_PRIMARY_COLOR;
  const { bg, fg } = buttonColors(primary);
  const text =
    isHexColor(p.text_color) && contrast(p.text_color.trim(), '#ffffff') >= 4.5
      ? p.text_color.trim()
      : DEFAULT_TEXT_COLOR;
  const font =
    p.widget_font && /^[\w\s,'"-]{1,80}$/.test(p.widget_font) ? p.widget_font + ',' + SYSTEM_FONTS : SYSTEM_FONTS;
  const radius = p.border_radius && /^\d{1,2}(\.\d+)?(px|rem|em)$/.test(p.border_radius) ? p.border_radius : '8px';
  return {
    primary: bg,
    onPrimary: fg,
    text,
    font,
    radius,
    position: /left/i.test(p.widget_position || '') ? 'left' : 'right',
  };
}
