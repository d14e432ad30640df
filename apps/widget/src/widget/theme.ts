// The property's look as the widget's CSS variables: the rules (checked values, 4.5:1 contrast)
// are libs/contracts' widgetLook, which the owner console's preview uses too.
import type { WidgetSettings } from '@platform/contracts';
import { widgetLook } from '@platform/contracts/widget-look';

export interface Theme {
  vars: string;
  position: 'left' | 'right';
}

export function theme(s: WidgetSettings): Theme {
  const look = widgetLook(s);
  const vars =
    ':host{--pw-primary:' +
    look.primary +
    ';--pw-on-primary:' +
    look.onPrimary +
    ';--pw-text:' +
    look.text +
    ';--pw-font:' +
    look.font +
    ';--pw-radius:' +
    look.radius +
    '}';
  return { vars, position: look.position };
}
