// The look's fields: colours (typed as hex or picked), font, corner radius and position. Each change goes
// straight to the draft, so the preview follows as the owner types.
import { useId, useState } from 'react';
import { describedBy, Frame, SelectField, TextField } from '../../../ui/field';
import { CUSTOM_FONT, FONT_PRESETS, presetOf, radiusPx, type AppearanceDraft } from './draft';
import { contrast, DEFAULT_TEXT_COLOR, isHexColor, longHex, widgetLook } from '@platform/contracts';

type Edit = (change: Partial<AppearanceDraft>) => void;
interface Props {
  draft: AppearanceDraft;
  edit: Edit;
  errors: Record<string, string>;
  savedFont: string;
}

function ColorField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: string;
}) {
  const id = useId();
  const { label, value, onChange, error, hint } = props;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <div className="color-input">
        <input
          type="color"
          aria-label={`Pick the ${label.toLowerCase()}`}
          value={longHex(value)}
          onChange={(e) => onChange(e.target.value)}
        />
        <input
          id={id}
          value={value}
          maxLength={7}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, { error, hint })}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </Frame>
  );
}

/** What the widget will make of the colours (it keeps text readable): said under the field it concerns. */
function colourHints(draft: AppearanceDraft) {
  const look = widgetLook(draft);
  const text = isHexColor(draft.text_color) ? longHex(draft.text_color) : undefined;
  return {
    primary:
      isHexColor(draft.primary_color) && look.onPrimary === '#000000'
        ? 'Buttons get black text: it reads better on this colour.'
        : 'Buttons and switches. Like #1a56db.',
    text:
      text && contrast(text, '#ffffff') < 4.5
        ? `Too light to read on white: the widget uses ${DEFAULT_TEXT_COLOR} instead.`
        : 'Text on the white notice. Like #1f2937.',
  };
}

function FontField({ draft, edit, errors, savedFont }: Props) {
  // "Your site's font" stays chosen while its name is typed (an empty or preset name included).
  const [custom, setCustom] = useState(presetOf(draft.widget_font) === CUSTOM_FONT);
  const choose = (value: string) => {
    setCustom(value === CUSTOM_FONT);
    if (value === CUSTOM_FONT) return;
    // The system font: back to "none set" when that is what was saved.
    edit({ widget_font: value === 'system-ui' && savedFont === '' ? '' : value });
  };
  return (
    <>
      <SelectField
        label="Font"
        options={[...FONT_PRESETS, { value: CUSTOM_FONT, label: 'Your site’s font (type its name)' }]}
        value={custom ? CUSTOM_FONT : presetOf(draft.widget_font)}
        onChange={(e) => choose(e.target.value)}
        error={custom ? undefined : errors.widget_font}
      />
      {custom && (
        <TextField
          label="Font family"
          value={draft.widget_font}
          onChange={(e) => edit({ widget_font: e.target.value })}
          error={errors.widget_font}
          hint="As in CSS, like Inter, sans-serif. It shows when your site loads that font."
        />
      )}
    </>
  );
}

function RadiusField({ draft, edit }: Pick<Props, 'draft' | 'edit'>) {
  const id = useId();
  const px = radiusPx(draft.border_radius);
  return (
    <Frame id={id} label="Corner radius" hint={`${px} px`}>
      <input
        id={id}
        type="range"
        className="range"
        min={0}
        max={48}
        value={Math.min(px, 48)}
        aria-valuetext={`${px} pixels`}
        aria-describedby={`${id}-hint`}
        onChange={(e) => edit({ border_radius: `${e.target.value}px` })}
      />
    </Frame>
  );
}

function PositionField({ draft, edit }: Pick<Props, 'draft' | 'edit'>) {
  const name = useId();
  const options = [
    { value: 'BOTTOM_LEFT', label: 'Bottom left' },
    { value: 'BOTTOM_RIGHT', label: 'Bottom right' },
  ];
  return (
    <fieldset>
      <legend>Position</legend>
      {options.map((o) => (
        <label key={o.value} className="radio">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={draft.widget_position === o.value}
            onChange={() => edit({ widget_position: o.value })}
          />
          <span>{o.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

export function LookFields(props: Props) {
  const { draft, edit, errors } = props;
  const hints = colourHints(draft);
  return (
    <>
      <div className="form-grid">
        <ColorField
          label="Primary colour"
          value={draft.primary_color}
          onChange={(v) => edit({ primary_color: v })}
          error={errors.primary_color}
          hint={hints.primary}
        />
        <ColorField
          label="Text colour"
          value={draft.text_color}
          onChange={(v) => edit({ text_color: v })}
          error={errors.text_color}
          hint={hints.text}
        />
      </div>
      <FontField {...props} />
      <RadiusField draft={draft} edit={edit} />
      <PositionField draft={draft} edit={edit} />
    </>
  );
}
