// One website's console: its sections in a navigation beside the screen (above it on a phone), the
// website's name and, with several, the way back to the list. A domain id not in the session is "not found".
import { Link, NavLink, Outlet } from 'react-router';
import { routes } from '../../../routes';
import { PageHeader } from '../../../ui/misc';
import { useConsoleDomain, useOwnerAccess, type ConsoleDomain } from '../access';
import { OwnerMain } from '../frame';
import { SECTION_GROUPS } from './sections';

function SectionNav({ domain, several }: { domain: ConsoleDomain; several: boolean }) {
  return (
    <nav className="console-nav" aria-label="Website">
      <div className="console-site">
        <span className="console-site-label">Website</span>
        <strong className="console-site-host">{domain.hostname}</strong>
        {several && (
          <Link className="console-switch" to={routes.owner.home()}>
            Switch website
          </Link>
        )}
      </div>
      {SECTION_GROUPS.map((group) => (
        <div key={group.title} className="console-nav-group">
          <p className="nav-group-title">{group.title}</p>
          <ul>
            {group.sections.map(({ section, label }) => (
              <li key={section}>
                <NavLink to={routes.owner.section({ domainId: domain.id, section })}>{label}</NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

export default function DomainLayout() {
  const domain = useConsoleDomain();
  const { session } = useOwnerAccess();
  if (!domain) {
    return (
      <OwnerMain>
        <PageHeader
          title="Website not found"
          description="This website is not in your account, or it was removed from it."
        />
        <Link to={routes.owner.home()}>Go to your websites</Link>
      </OwnerMain>
    );
  }
  return (
    <div className="console-layout">
      <SectionNav domain={domain} several={session.domains.length > 1} />
      <OwnerMain wide>
        <Outlet />
      </OwnerMain>
    </div>
  );
}
