// Where an onboarding widget draws: the element the page marks (data-onboarding-<widget>, or the
// script's data-target selector), else a new one right after the script. Its markup and styles
// live in an open shadow root, so the page's CSS cannot reach in and ours cannot leak out.
import { buttonColors } from '@platform/contracts/widget-look';
import { CSS } from './styles';

export interface Embed {
  partnerId: string;
  /** The gateway's origin: where the script came from. */
  origin: string;
  script: HTMLScriptElement;
}

/** The script tag that is running now, with its partner and origin; undefined without data-partner. */
export function currentEmbed(): Embed | undefined {
  const script = document.currentScript as HTMLScriptElement | null;
  const partnerId = script && script.getAttribute('data-partner');
  if (!script || !partnerId) return undefined;
  return { partnerId, origin: new URL(script.src, location.href).origin, script };
}

/** The widget's shadow root, themed with the partner's colour (darkened until its text reads at 4.5:1). */
export function mount(embed: Embed, widget: string, color: string | null, at?: HTMLElement): ShadowRoot {
  const selector = embed.script.getAttribute('data-target');
  let host = at || (selector && document.querySelector<HTMLElement>(selector)) || null;
  host = host || document.querySelector<HTMLElement>('[data-onboarding-' + widget + ']');
  if (!host) {
    host = document.createElement('div');
    embed.script.insertAdjacentElement('afterend', host);
  }
  host.setAttribute('data-onboarding-widget', widget);
  const shadow = host.shadowRoot || host.attachShadow({ mode: 'open' });
  const { bg, fg } = buttonColors(color && /^#[0-9a-f]{6}$/i.test(color) ? color : '#1a56db');
  const style = document.createElement('style');
  style.textContent = ':host{--ow-primary:' + bg + ';--ow-on-primary:' + fg + '}' + CSS;
  shadow.replaceChildren(style);
  return shadow;
}

export function whenReady(run: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run);
  else run();
}
