import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  id: string;
  label: string;
  content: ReactNode;
}

/**
 * Tabs as the WAI-ARIA pattern has them: one tab stop (the selected tab), Left/Right move and select
 * (wrapping), Home/End go to the first/last, each panel named by its tab and focusable.
 */
export function Tabs({ label, tabs }: { label: string; tabs: TabItem[] }) {
  const base = useId();
  const [selectedId, setSelectedId] = useState(tabs[0]?.id);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const index = Math.max(
    0,
    tabs.findIndex((t) => t.id === selectedId),
  );
  const moveTo = (next: number) => {
    const tab = tabs[(next + tabs.length) % tabs.length];
    setSelectedId(tab.id);
    buttons.current.get(tab.id)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moveTo(next);
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab, i) => (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) buttons.current.set(tab.id, el);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${i}`}
            aria-selected={i === index}
            aria-controls={`${base}-panel-${i}`}
            tabIndex={i === index ? 0 : -1}
            className="tab"
            onClick={() => setSelectedId(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, i) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${base}-panel-${i}`}
          aria-labelledby={`${base}-tab-${i}`}
          tabIndex={0}
          hidden={i !== index}
          className="tab-panel"
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
