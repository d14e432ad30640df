import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';
import { Section } from './misc';

/** A domain's widget script tag as code, with a copy button (the domain page, the owner console's home). */
export function WidgetSnippet({
  code,
  title = 'Widget snippet',
  children,
}: {
  code: string;
  title?: string;
  children?: ReactNode;
}) {
  return (
    <Section title={title} actions={<CopyButton text={code} label="Copy snippet" />}>
      <p className="muted">Put this tag into every page of the site, before other scripts.</p>
      <pre aria-label="Widget snippet">{code}</pre>
      {children}
    </Section>
  );
}
