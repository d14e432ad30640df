import { Navigate, Outlet, useLocation } from 'react-router';
import { queryState } from '../api/query-state';
import { routes } from '../routes';
import { DataState } from '../ui/data-state';
import { useSession } from './session';

/** The one guard of every signed-in screen: signed out goes to sign-in, a pending second factor to its step. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending || session.isError) {
    return (
      <main className="center-page">
        <DataState {...queryState(session)} loadingLabel="Loading your session…" />
      </main>
    );
  }
  if (!session.data) return <Navigate to={routes.signIn()} replace state={{ from: location.pathname }} />;
  if (session.data.stage === 'TOTP_REQUIRED') return <Navigate to={routes.twoFactor()} replace />;
  if (session.data.stage === 'TOTP_ENROLMENT_REQUIRED') return <Navigate to={routes.enrolTwoFactor()} replace />;
  return <Outlet />;
}
