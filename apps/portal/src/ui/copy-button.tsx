import { useState } from 'react';

/** Copies `text` to the clipboard and says so (in a live region, for screen readers too). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" className="btn btn-secondary btn-small" onClick={copy}>
        {label}
      </button>
      <span className="copy-status" role="status">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Select the text and copy it' : ''}
      </span>
    </span>
  );
}
