import { Link } from 'react-router';
import { errorMessage } from '../../api/errors';
import { routes } from '../../routes';
import { DataState } from '../../ui/data-state';
import { Badge, formatDate, PageHeader, TableFrame } from '../../ui/misc';
import { TEMPLATE_NAMES, useTemplates } from './hooks';

export default function TemplatesPage() {
  const templates = useTemplates();
  const rows = templates.data ?? [];
  return (
    <>
      <PageHeader
        title="E-mail templates"
        description="The e-mails your domains' owners get. Customize the wording; until you do, the platform's default is sent."
      />
      <DataState
        loading={templates.isPending}
        error={templates.isError ? errorMessage(templates.error) : undefined}
        onRetry={() => templates.refetch()}
        empty={rows.length === 0}
        emptyTitle="No templates"
        loadingLabel="Loading templates…"
      >
        <TableFrame label="E-mail templates">
          <thead>
            <tr>
              <th scope="col">Template</th>
              <th scope="col">Subject</th>
              <th scope="col">Version</th>
              <th scope="col" className="hide-sm">
                Changed
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={t.kind}>
                <td>
                  <Link to={routes.emailTemplates.detail({ kind: t.kind })}>{TEMPLATE_NAMES[t.kind]}</Link>
                </td>
                <td className="break">{t.subject}</td>
                <td>
                  <Badge tone={t.customized ? 'blue' : 'gray'}>{t.customized ? 'Customized' : 'Default'}</Badge>
                </td>
                <td className="hide-sm nowrap">{formatDate(t.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </TableFrame>
      </DataState>
    </>
  );
}
