import type { DomainImport, DomainImportPlan } from '@platform/contracts';
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { apiFieldErrors, type FieldErrors } from '../../forms';
import { PageHeader } from '../../ui/misc';
import { fileProblem, ImportForm, type FormChoice } from './components/import-form';
import { ImportPlan } from './components/import-plan';
import { ImportRun } from './components/import-run';
import { IMPORT_DEFAULTS, usePreviewImport, useStartImport, type ImportChoice } from './hooks';

/** Answers about the file itself: said next to the file field. */
const FILE_ERRORS = new Set([
  'IMPORT.INVALID_FILE',
  'IMPORT.TOO_MANY_ROWS',
  'REQUEST.TOO_LARGE',
  'REQUEST.UNSUPPORTED_MEDIA_TYPE',
]);

function uploadErrors(error: unknown): FieldErrors {
  if (error instanceof ApiError && FILE_ERRORS.has(error.code)) return { asset: errorMessage(error) };
  return apiFieldErrors(error, errorMessage);
}

type Step =
  | { kind: 'choose' }
  | { kind: 'preview'; sent: ImportChoice; plan: DomainImportPlan }
  | { kind: 'run'; started: DomainImport };

/**
 * Domains from a file in three steps: choose the file and what to do, preview the dry run's plan,
 * then import the same file and follow the job to its results.
 */
export default function ImportPage() {
  const [choice, setChoice] = useState<FormChoice>({ file: null, ...IMPORT_DEFAULTS });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const preview = usePreviewImport();
  const start = useStartImport();
  const top = useRef<HTMLDivElement>(null);
  /** Each step's new content starts at its heading: focus goes there, as after a navigation. */
  const go = (next: Step) => {
    setStep(next);
    requestAnimationFrame(() => top.current?.focus());
  };

  const change = (next: FormChoice) => {
    setChoice(next);
    // A file's type and size are known at once: say so before anything is sent.
    const problem = next.file ? fileProblem(next.file) : undefined;
    setErrors(problem ? { asset: problem } : {});
  };
  const runPreview = () => {
    const problem = fileProblem(choice.file);
    if (problem || !choice.file) return setErrors({ asset: problem ?? 'Choose a file.' });
    const sent: ImportChoice = { asset: choice.file, action: choice.action, mode: choice.mode };
    setErrors({});
    preview.mutate(sent, {
      onSuccess: (plan) => go({ kind: 'preview', sent, plan }),
      onError: (error) => setErrors(uploadErrors(error)),
    });
  };
  const confirm = (sent: ImportChoice) =>
    start.mutate(sent, {
      onSuccess: (started) => go({ kind: 'run', started }),
    });
  const again = () => {
    preview.reset();
    start.reset();
    go({ kind: 'choose' });
  };

  return (
    <>
      <PageHeader
        title="Import domains"
        description="Create up to 10,000 domains from a .csv or .xlsx file. You see what the file would do before anything is changed."
      />
      <div ref={top} tabIndex={-1} className="step">
        {step.kind === 'choose' && (
          <ImportForm
            choice={choice}
            onChange={change}
            errors={errors}
            busy={preview.isPending}
            onPreview={runPreview}
          />
        )}
        {step.kind === 'preview' && (
          <ImportPlan
            plan={step.plan}
            busy={start.isPending}
            error={start.isError ? errorMessage(start.error) : undefined}
            onConfirm={() => confirm(step.sent)}
            onBack={again}
          />
        )}
        {step.kind === 'run' && <ImportRun started={step.started} onAnother={again} />}
      </div>
    </>
  );
}
