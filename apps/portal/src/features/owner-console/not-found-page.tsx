import { Link } from 'react-router';
import { routes } from '../../routes';
import { PageHeader } from '../../ui/misc';
import { OwnerMain } from './frame';

export default function OwnerNotFoundPage() {
  return (
    <OwnerMain>
      <PageHeader title="Page not found" description="There is no such page in your account console." />
      <Link to={routes.owner.home()}>Go to your websites</Link>
    </OwnerMain>
  );
}
