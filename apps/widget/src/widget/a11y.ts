// Accessibility tools for the whole page (the visitor asks for them): text size, contrast, a readable
// font, no animations. Remembered per site; applied through one style element the widget owns.
import { load, save } from '../shared/store';
import { el } from './dom';
import { t } from './texts';

export interface A11yPrefs {
  size: number;
  contrast: boolean;
  font: boolean;
  still: boolean;
}
const NONE: A11yPrefs = { size: 100, contrast: false, font: false, still: false };

function css(p: A11yPrefs): string {
  return [
    p.size !== 100 ? 'body{zoom:' + p.size / 100 + '}' : '',
    p.contrast ? 'html{filter:contrast(1.6)}' : '',
    p.font
      ? 'body,body *{font-family:Verdana,Tahoma,Arial,sans-serif !important;letter-spacing:.02em;word-spacing:.08em}'
      : '',
    p.still
      ? '*,*::before,*::after{animation:none !important;transition:none !important;scroll-behavior:auto !important}'
      : '',
  ].join('');
}

export function applyA11y(id: string): A11yPrefs {
  const p = { ...NONE, ...(load<A11yPrefs>(id, 'a11y') || {}) };
  let style = document.querySelector<HTMLStyleElement>('style[data-privacy-widget-a11y]');
  const text = css(p);
  if (!text) {
    if (style) style.remove();
    return p;
  }
  if (!style) {
    style = el('style', { 'data-privacy-widget-a11y': true });
    document.head.append(style);
  }
  style.textContent = text;
  return p;
}

export function a11yView(id: string): HTMLElement {
  const p = applyA11y(id);
  const update = (change: Partial<A11yPrefs>) => {
    save(id, 'a11y', { ...applyA11y(id), ...change });
    applyA11y(id);
  };
  const size = el(
    'select',
    { id: 'pw-a11y-size', onchange: () => update({ size: Number(size.value) }) },
    ...[100, 125, 150].map((v) => el('option', { value: v, selected: v === p.size }, v + '%')),
  );
  const check = (key: 'contrast' | 'font' | 'still', label: string) => {
    const box = el('input', { type: 'checkbox', id: 'pw-a11y-' + key, checked: p[key], 'data-a11y': key });
    box.addEventListener('change', () => update({ [key]: box.checked }));
    return el('div', { class: 'cat' }, box, el('label', { for: 'pw-a11y-' + key }, label));
  };
  return el(
    'div',
    {},
    el('h3', {}, t('tabA11y')),
    el('p', {}, t('a11yBody')),
    el('div', { class: 'field' }, el('label', { for: 'pw-a11y-size' }, t('a11ySize')), size),
    check('contrast', t('a11yContrast')),
    check('font', t('a11yFont')),
    check('still', t('a11yStill')),
  );
}
