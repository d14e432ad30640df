import { Link, Navigate } from 'react-router';
import { routes } from '../../routes';
import { DataState } from '../../ui/data-state';
import { PageHeader } from '../../ui/misc';
import { useOwnerAccess } from './access';
import { OwnerMain } from './frame';

/** The console's home: the owner picks one of their websites; with only one, it opens at once. */
export default function OwnerHomePage() {
  const { session } = useOwnerAccess();
  const partner = session.partner.name;
  const [only] = session.domains;
  if (session.domains.length === 1)
    return <Navigate to={routes.owner.section({ domainId: only.id, section: 'install' })} replace />;
  return (
    <OwnerMain>
      <PageHeader
        title="Your websites"
        description={`Choose a website to install ${partner}'s privacy widget, change its look, and see its scans and consent records.`}
      />
      <DataState
        loading={false}
        empty={session.domains.length === 0}
        emptyTitle="No websites yet"
        emptyText={`When ${partner} adds a website to your account, it shows here.`}
      >
        <ul className="site-list">
          {session.domains.map((domain) => (
            <li key={domain.id}>
              <Link className="site-link" to={routes.owner.section({ domainId: domain.id, section: 'install' })}>
                <span className="site-host">{domain.hostname}</span>
                <span className="muted">Install, appearance, scans, consent records</span>
              </Link>
            </li>
          ))}
        </ul>
      </DataState>
    </OwnerMain>
  );
}
