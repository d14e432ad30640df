import { EMAIL_TEMPLATE_KINDS, emailTemplateBodySchema, type EmailTemplate } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/errors';
import { queryState } from '../../api/query-state';
import { can, useSession } from '../../auth/session';
import { apiFieldErrors, validate, type FieldErrors } from '../../forms';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataState } from '../../ui/data-state';
import { FormMessage, StatusMessage, TextArea, TextField } from '../../ui/field';
import { PageHeader, Section } from '../../ui/misc';
import { TEMPLATE_NAMES, usePreview, useTemplate, useTemplateMutations } from './hooks';

/**
 * The frame's margins, and long lines (the widget snippet) wrapped instead of cut off at its edge: after
 * the e-mail (a doctype stays first) and of no specificity (the e-mail's own styles win).
 */
const PREVIEW_STYLE =
  '<style>:where(body){margin:16px;font-family:sans-serif}:where(pre){white-space:pre-wrap;overflow-wrap:anywhere}:where(img){max-width:100%}</style>';

function Preview({ kind, draft }: { kind: EmailTemplate['kind']; draft: { subject: string; body: string } }) {
  const preview = usePreview(kind, draft);
  return (
    <Section title="Preview">
      <DataState
        loading={preview.isPending && preview.fetchStatus !== 'idle'}
        error={preview.isError ? errorMessage(preview.error) : undefined}
      >
        {preview.data && (
          <>
            <p>
              <strong>Subject:</strong> {preview.data.subject}
            </p>
            {/* The rendered e-mail in a sandbox: no scripts, no same-origin access. */}
            <iframe
              className="preview-frame"
              title="E-mail preview"
              sandbox=""
              srcDoc={preview.data.html + PREVIEW_STYLE}
            />
          </>
        )}
      </DataState>
    </Section>
  );
}

function Editor({ template }: { template: EmailTemplate }) {
  const writable = can(useSession().data, 'templates:write');
  const [draft, setDraft] = useState({ subject: template.subject, body: template.body });
  // What the last action did ("Saved."): it stays until the next edit.
  const [status, setStatus] = useState('');
  const edit = (change: Partial<typeof draft>) => (setDraft({ ...draft, ...change }), setStatus(''));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirmReset, setConfirmReset] = useState(false);
  const { save, reset, test } = useTemplateMutations(template.kind);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validate(emailTemplateBodySchema, draft);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: () => setStatus('Saved. New e-mails use this version.'),
      onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
    });
  };
  return (
    <div className="two-columns">
      <form onSubmit={submit} noValidate>
        <Section title="Template">
          <TextField
            label="Subject"
            name="subject"
            value={draft.subject}
            onChange={(e) => edit({ subject: e.target.value })}
            error={errors.subject}
            readOnly={!writable}
          />
          <TextArea
            label="Body"
            name="body"
            value={draft.body}
            onChange={(e) => edit({ body: e.target.value })}
            error={errors.body}
            readOnly={!writable}
            rows={14}
            hint={
              <>
                Variables:{' '}
                {template.variables.map((v) => (
                  <code key={v.name} title={v.description}>
                    {`{{ ${v.name} }}`}{' '}
                  </code>
                ))}
              </>
            }
          />
          {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
          <StatusMessage>{status}</StatusMessage>
          {(test.isError || reset.isError) && (
            <FormMessage tone="error">{errorMessage(test.error ?? reset.error)}</FormMessage>
          )}
          <div className="form-actions">
            {writable && (
              <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…">
                Save
              </Button>
            )}
            <Button
              busy={test.isPending}
              onClick={() =>
                test.mutate(undefined, { onSuccess: () => setStatus('A test e-mail is on its way to you.') })
              }
            >
              Send me a test
            </Button>
            {writable && template.customized && (
              <Button variant="ghost" onClick={() => setConfirmReset(true)}>
                Reset to default
              </Button>
            )}
          </div>
        </Section>
      </form>
      <Preview kind={template.kind} draft={draft} />
      <ConfirmDialog
        open={confirmReset}
        title="Reset to the platform's default?"
        confirmLabel="Reset template"
        busy={reset.isPending}
        onClose={() => setConfirmReset(false)}
        onConfirm={() =>
          reset.mutate(undefined, {
            onSuccess: ({ result }) => {
              setConfirmReset(false);
              setDraft({ subject: result.subject, body: result.body });
              setStatus("Reset. New e-mails use the platform's default.");
            },
          })
        }
      >
        Your customized subject and body are deleted.
      </ConfirmDialog>
    </div>
  );
}

export default function TemplateEditPage() {
  const { kind = '' } = useParams();
  const known = (EMAIL_TEMPLATE_KINDS as readonly string[]).includes(kind)
    ? (kind as EmailTemplate['kind'])
    : 'INVITATION';
  const template = useTemplate(known);
  return (
    <>
      <p>
        <Link to={routes.emailTemplates.list()}>← E-mail templates</Link>
      </p>
      <PageHeader title={`${TEMPLATE_NAMES[known]} e-mail`} />
      <DataState {...queryState(template)} loadingLabel="Loading the template…">
        {/* Not keyed by version: a save must not remount the editor (and lose its "Saved."). */}
        {template.data && <Editor key={template.data.kind} template={template.data} />}
      </DataState>
    </>
  );
}
