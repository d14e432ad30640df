import { Link } from 'react-router';
import { routes } from '../routes';
import { PageHeader } from '../ui/misc';

export default function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" description="There is no such page in the portal." />
      <Link to={routes.dashboard()}>Go to the dashboard</Link>
    </>
  );
}
