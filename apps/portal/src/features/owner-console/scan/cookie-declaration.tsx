// The cookie declaration for the owner's privacy policy: a table per category in the widget's own
// category texts, and "Copy as HTML" to paste it into the policy page.
import type { CookieDeclaration } from '@platform/contracts';
import { queryState } from '../../../api/query-state';
import { CopyButton } from '../../../ui/copy-button';
import { DataState } from '../../../ui/data-state';
import { formatDate, Section, TableFrame } from '../../../ui/misc';
import { declarationHtml } from './declaration-html';
import { useCookieDeclaration } from './hooks';

const COLUMNS: { label: string; className: string }[] = [
  { label: 'Cookie', className: 'col-cookie' },
  { label: 'Domain', className: 'col-domain hide-sm' },
  { label: 'Provider', className: 'col-provider' },
  { label: 'Type', className: 'col-type hide-sm' },
  { label: 'Duration', className: 'col-duration' },
];

function Category({ category }: { category: CookieDeclaration['categories'][number] }) {
  return (
    <div className="declaration-category">
      <h3>{category.label}</h3>
      <p className="muted">{category.description}</p>
      {category.cookies.length === 0 ? (
        <p className="declaration-none">No cookies in this category.</p>
      ) : (
        <TableFrame label={`${category.label} cookies`}>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.label} scope="col" className={c.className}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {category.cookies.map((c) => (
              <tr key={`${c.name}@${c.domain}`}>
                <td>
                  <code className="cookie-name">{c.name}</code>
                </td>
                <td className="break hide-sm">{c.domain}</td>
                <td>{c.vendor ?? '—'}</td>
                <td className="hide-sm">{c.first_party ? 'First party' : 'Third party'}</td>
                <td>{c.duration}</td>
              </tr>
            ))}
          </tbody>
        </TableFrame>
      )}
    </div>
  );
}

export function CookieDeclarationCard({
  domainId,
  scanFinishedAt,
}: {
  domainId: string;
  scanFinishedAt?: string | null;
}) {
  const declaration = useCookieDeclaration(domainId, scanFinishedAt, true);
  const d = declaration.data;
  return (
    <Section
      title="Cookie declaration"
      actions={
        d?.scanned_at && <CopyButton text={declarationHtml(d, (iso) => formatDate(iso, false))} label="Copy as HTML" />
      }
    >
      <DataState {...queryState(declaration)} loadingLabel="Loading the cookie declaration…">
        {d && (
          <>
            <p className="muted section-intro">
              {d.scanned_at
                ? `The cookies of ${d.hostname} by purpose, from the scan of ${formatDate(d.scanned_at)}. Paste it into your privacy or cookie policy, and copy it again after each scan.`
                : `No scan of ${d.hostname} has finished yet, so the declaration lists no cookies. Scan the site first.`}
            </p>
            {d.scanned_at && d.categories.map((c) => <Category key={c.category} category={c} />)}
          </>
        )}
      </DataState>
    </Section>
  );
}
