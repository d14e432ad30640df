// A faithful mock of the widget on a page of the site, drawn from the form's values as the owner types:
// the notice (apps/widget/src/widget/notice.ts: its texts, buttons and corner box) and the privacy center
// with the tabs the flags turn on (center.ts). It is a picture (role=img, named by what it shows): nothing
// in it is focusable, and its look comes from the widget's own CSS rules (widget-preview.css).
import { CONSENT_CATEGORIES } from '@platform/contracts';
import type { CSSProperties, ReactNode } from 'react';
import { Section } from '../../../ui/misc';
import { Tabs } from '../../../ui/tabs';
import type { AppearanceDraft } from './draft';
import { widgetLook, type WidgetLook } from '@platform/contracts';
import './widget-preview.css';

const NOTICE_TEXT =
  'We and our partners use cookies and similar technologies for the purposes below. Necessary ones keep the site working; ' +
  'the others run only if you allow them. You can change your choice at any time in the privacy center.';

const CENTER_TABS: [keyof AppearanceDraft | null, string][] = [
  [null, 'Consent preferences'],
  ['has_dsar', 'Requests'],
  ['has_docs', 'Policies'],
  ['has_accessibility', 'Accessibility'],
  ['display_company', 'Company'],
  ['display_dpo', 'Data protection officer'],
];

const varsOf = (look: WidgetLook) =>
  ({
    '--pw-primary': look.primary,
    '--pw-on-primary': look.onPrimary,
    '--pw-text': look.text,
    '--pw-font': look.font,
    '--pw-radius': look.radius,
  }) as CSSProperties;

function Stage({
  hostname,
  label,
  look,
  children,
}: {
  hostname: string;
  label: string;
  look: WidgetLook;
  children: ReactNode;
}) {
  return (
    <div className="wp-stage" role="img" aria-label={label} style={varsOf(look)}>
      <div className="wp-bar">
        <span className="wp-dots" />
        <span className="wp-address">https://{hostname}/</span>
      </div>
      <div className="wp-page">
        <span className="wp-line wp-line-title" />
        <span className="wp-block" />
        <span className="wp-line" />
        <span className="wp-line" />
        <span className="wp-line wp-line-short" />
      </div>
      {children}
    </div>
  );
}

const Btn = ({ ghost, children }: { ghost?: boolean; children: string }) => (
  <span className={ghost ? 'wp-ghost' : 'wp-btn'}>{children}</span>
);

function Notice({ look }: { look: WidgetLook }) {
  return (
    <div className={`wp wp-classic wp-${look.position}`}>
      <p className="wp-title">Your privacy choices</p>
      <p>{NOTICE_TEXT}</p>
      <div className="wp-actions">
        <Btn>Reject all</Btn>
        <Btn>Accept all</Btn>
        <Btn ghost>Settings</Btn>
      </div>
    </div>
  );
}

function Center({ draft }: { draft: AppearanceDraft }) {
  const tabs = CENTER_TABS.filter(([flag]) => !flag || draft[flag]).map(([, label]) => label);
  return (
    <div className="wp-overlay">
      <div className="wp wp-center">
        <div className="wp-head">
          <p className="wp-title">Privacy center</p>
          <Btn ghost>Close</Btn>
        </div>
        <div className="wp-tabs">
          {tabs.map((t, i) => (
            <span key={t} className={i === 0 ? 'wp-tab wp-tab-on' : 'wp-tab'}>
              {t}
            </span>
          ))}
        </div>
        <p className="wp-subtitle">Consent preferences</p>
        <p>Choose which categories this site may use.</p>
        {CONSENT_CATEGORIES.map((c) => (
          <div key={c.name} className="wp-cat">
            <span className={c.required ? 'wp-check wp-check-on' : 'wp-check'} />
            <span>
              {c.label}
              <small>{c.description}</small>
            </span>
          </div>
        ))}
        <Btn>Save choices</Btn>
      </div>
    </div>
  );
}

const SIDE = { left: 'bottom left', right: 'bottom right' };

export function WidgetPreview({ draft, hostname }: { draft: AppearanceDraft; hostname: string }) {
  const look = widgetLook(draft);
  const colours = `buttons ${look.primary} with ${look.onPrimary} text, text ${look.text}, corners ${look.radius}`;
  const notice = draft.has_scripts ? (
    <Stage
      hostname={hostname}
      look={look}
      label={`The consent notice at the ${SIDE[look.position]} of ${hostname}: ${colours}`}
    >
      <Notice look={look} />
    </Stage>
  ) : (
    <Stage hostname={hostname} look={look} label={`No consent notice on ${hostname}: asking for consent is off`}>
      <p className="wp-none">No notice: asking for consent is off, so scripts run without asking.</p>
    </Stage>
  );
  const center = (
    <Stage hostname={hostname} look={look} label={`The privacy center on ${hostname}: ${colours}`}>
      <Center draft={draft} />
    </Stage>
  );
  return (
    <Section title="Preview">
      <p className="muted preview-note">Updates as you edit. Visitors see it like this after you save.</p>
      <Tabs
        label="Preview"
        tabs={[
          { id: 'notice', label: 'Consent notice', content: notice },
          { id: 'center', label: 'Privacy center', content: center },
        ]}
      />
    </Section>
  );
}
