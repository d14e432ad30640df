import { Link, useRouteError } from 'react-router';
import { routes } from '../routes';

/** What a screen shows when it failed to load or threw (e.g. a new deployment replaced its chunk). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <main className="center-page" id="main">
      <div className="state state-error" role="alert">
        <h1>This page could not be shown</h1>
        <p>Reload the page to try again. If it keeps happening, the portal may have been updated meanwhile.</p>
        <p>
          <Link to={routes.dashboard()}>Go to the dashboard</Link>
        </p>
      </div>
    </main>
  );
}
