// The owner console's guard and frame: the partner's name as the brand, the owner's e-mail and Sign
// out; no partner-portal navigation (another audience, another session). Each screen brings its own
// <main> (OwnerMain), so a domain's section navigation sits beside it and the skip link passes it.
import { useMutation } from '@tanstack/react-query';
import { ownerSessionRoutes, routeOf, type OwnerSession } from '@platform/contracts';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useNavigationType } from 'react-router';
import { call } from '../../api/client';
import { queryState } from '../../api/query-state';
import { routes } from '../../routes';
import { DataState } from '../../ui/data-state';
import { useOwnerSession } from './session';
import type { OwnerSignInState } from './sign-in-page';
import { SignOutButton } from '../../ui/button';
import { ROLE_LABELS } from './access';
import './console.css';

/**
 * After a navigation focus moves to the new screen, as a page load would reset it; not on the first
 * screen, nor after a redirect (the home going straight into the only domain), so Tab meets the skip link.
 */
function useFocusOnNavigation() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  const first = useRef(true);
  useEffect(() => {
    if (first.current || type === 'REPLACE') {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [pathname, type]);
}

function OwnerShell({ session }: { session: OwnerSession }) {
  const navigate = useNavigate();
  useFocusOnNavigation();
  const signOut = useMutation({
    mutationFn: () => call(routeOf(ownerSessionRoutes, 'deleteOwnerSession')),
    // The sign-in page drops the session (were it dropped here, this guard would say "ended" first).
    onSettled: () =>
      navigate(routes.owner.signIn(), { replace: true, state: { signedOut: true } satisfies OwnerSignInState }),
  });
  return (
    <div className="owner-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar owner-topbar">
        <p className="owner-brand">
          <span className="brand">{session.partner.name}</span> <span className="muted">Account console</span>
        </p>
        <div className="owner-user">
          <span className="owner-email">
            {session.user.email} <span className="muted">· {ROLE_LABELS[session.user.role]}</span>
          </span>
          <SignOutButton onSignOut={() => signOut.mutate()} pending={signOut.isPending} />
        </div>
      </header>
      <Outlet />
    </div>
  );
}

/** Every /owner screen: signed out (401) goes to the console's sign-in, which says the session ended. */
export default function OwnerConsole() {
  const session = useOwnerSession();
  if (session.isPending || session.isError) {
    return (
      <main className="center-page" id="main">
        <DataState {...queryState(session)} loadingLabel="Loading your account…" />
      </main>
    );
  }
  if (!session.data) {
    return <Navigate to={routes.owner.signIn()} replace state={{ ended: true } satisfies OwnerSignInState} />;
  }
  return <OwnerShell session={session.data} />;
}
