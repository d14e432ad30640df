import { Link } from 'react-router';
import { queryState } from '../../api/query-state';
import { routes } from '../../routes';
import { ListSection, type ListColumn } from '../../ui/list-section';
import { Badge, formatDate, PageHeader } from '../../ui/misc';
import { TEMPLATE_NAMES, useTemplates } from './hooks';

const COLUMNS: ListColumn[] = [
  { label: 'Template' },
  { label: 'Subject' },
  { label: 'Version' },
  { label: 'Changed', className: 'hide-sm' },
];

export default function TemplatesPage() {
  const templates = useTemplates();
  const rows = templates.data ?? [];
  return (
    <>
      <PageHeader
        title="E-mail templates"
        description="The e-mails your domains' owners get. Customize the wording; until you do, the platform's default is sent."
      />
      <ListSection
        {...queryState(templates)}
        loadingLabel="Loading templates…"
        empty={rows.length === 0}
        emptyTitle="No templates"
        table={{ label: 'E-mail templates', columns: COLUMNS }}
      >
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
      </ListSection>
    </>
  );
}
