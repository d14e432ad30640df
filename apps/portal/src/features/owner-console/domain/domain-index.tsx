import { Navigate, useParams } from 'react-router';
import { routes } from '../../../routes';

/** A website's console opens at its install steps. */
export default function DomainIndex() {
  const { domainId = '' } = useParams();
  return <Navigate to={routes.owner.section({ domainId, section: 'install' })} replace />;
}
