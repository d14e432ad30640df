import { useId, useRef, useState, type DragEvent } from 'react';
import { describedBy, Frame, type FieldFrame } from './field';

interface Props extends FieldFrame {
  /** The input's accept list, e.g. ".csv,.xlsx". */
  accept: string;
  file: File | null;
  onFile: (file: File | null) => void;
}

/** "12.3 MB", "830 KB": a file's size as people read it. */
export const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * A real <input type=file> (keyboard and screen readers use it as it is) inside a zone a file can be
 * dropped on; the chosen file's name and size are said below it, its error next to it.
 */
export function FileField({ label, accept, file, onFile, hint, error }: Props) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (!dropped) return;
    // The input shows the dropped file too, so it and the screen agree.
    if (input.current) input.current.files = event.dataTransfer.files;
    onFile(dropped);
  };
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <div
        className={`drop-zone${over ? ' drop-zone-over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p className="drop-zone-text" aria-hidden="true">
          Drop the file here, or choose it:
        </p>
        <input
          id={id}
          ref={input}
          type="file"
          accept={accept}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, { error, hint })}
          onChange={(event) => onFile(event.target.files?.[0] ?? null)}
        />
        {file && (
          <p className="drop-zone-file">
            {file.name} ({formatBytes(file.size)})
          </p>
        )}
      </div>
    </Frame>
  );
}
