import { useMutation } from '@tanstack/react-query';
import { authRoutes, routeOf, type Session } from '@platform/contracts';
import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { call } from '../api/client';
import { useSession, useSetSession } from '../auth/session';
import { routes } from '../routes';
import { visibleNav, type NavItem } from './navigation';
import { SignOutButton } from '../ui/button';

function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  const groups = [...new Set(items.map((i) => i.group ?? ''))];
  return (
    <>
      {groups.map((group) => (
        <div key={group} className="nav-group">
          {group && <p className="nav-group-title">{group}</p>}
          <ul>
            {items
              .filter((i) => (i.group ?? '') === group)
              .map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.to === '/'} onClick={onNavigate}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </>
  );
}

function UserBlock({ session }: { session: Session }) {
  const setSession = useSetSession();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => call(routeOf(authRoutes, 'deleteSession')),
    onSettled: () => {
      setSession(null);
      navigate(routes.signIn(), { replace: true });
    },
  });
  return (
    <div className="user-block">
      <p className="user-name">{session.user.name || session.user.email}</p>
      <p className="user-role">{session.user.role.replace('_', ' ').toLowerCase()}</p>
      <SignOutButton onSignOut={() => signOut.mutate()} pending={signOut.isPending} />
    </div>
  );
}

/** The signed-in frame: skip link, top bar, the sidebar (a disclosure menu on a phone) and the screen. */
export function AppShell() {
  const session = useSession().data as Session;
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const firstScreen = useRef(true);
  useEffect(() => {
    // After a navigation focus moves to the new screen (as a page load would reset it); the first
    // screen leaves focus at the top of the document, so Tab reaches the skip link first.
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [location.pathname]);
  const items = visibleNav(session.permissions);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">{session.partner.name}</span>
        <button
          type="button"
          className="btn btn-secondary menu-button"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
      </header>
      <nav id="sidebar" className={`sidebar${menuOpen ? ' sidebar-open' : ''}`} aria-label="Main">
        <NavList items={items} onNavigate={() => setMenuOpen(false)} />
        <UserBlock session={session} />
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
