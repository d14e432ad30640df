import { Navigate, useNavigate } from 'react-router';
import { routes } from '../routes';
import { TotpEnrolment } from './totp-enrolment';
import { useSession } from './session';

/** When the partner requires two-factor authentication and this user has none yet. */
export default function EnrolTwoFactorPage() {
  const session = useSession();
  const navigate = useNavigate();
  if (session.isSuccess && !session.data) return <Navigate to={routes.signIn()} replace />;
  return (
    <main className="auth-page" id="main">
      <div className="auth-card auth-card-wide">
        <p className="auth-brand">Partner portal</p>
        <h1>Set up two-factor authentication</h1>
        <p>Your organisation requires a second step at sign-in. Set it up once to continue.</p>
        <TotpEnrolment
          onDone={() => {
            void session.refetch().then(() => navigate(routes.dashboard(), { replace: true }));
          }}
        />
      </div>
    </main>
  );
}
