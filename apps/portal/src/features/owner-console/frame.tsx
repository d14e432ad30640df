import type { ReactNode } from 'react';

/** A console screen's <main> (the skip link's target; focus lands here after a navigation). */
export function OwnerMain({ children, wide }: { children: ReactNode; wide?: boolean }) {
  return (
    <main id="main" className={`content owner-content${wide ? ' owner-content-wide' : ''}`} tabIndex={-1}>
      {children}
    </main>
  );
}
