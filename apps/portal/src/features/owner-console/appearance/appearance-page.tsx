import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryState } from '../../../api/query-state';
import { DataState } from '../../../ui/data-state';
import { PageHeader } from '../../../ui/misc';
import { useSectionDomain } from '../access';
import { ownerKeys, ownerRoute } from '../api';
import { AppearanceEditor } from './appearance-editor';
import { TextsEditor } from './texts-editor';

/** Appearance: the widget's look and features, with a live preview, and its texts per language. */
export default function AppearancePage() {
  const domain = useSectionDomain();
  const property = useQuery({
    queryKey: ownerKeys.of(domain.id, 'property'),
    queryFn: async () => (await call(ownerRoute('getOwnerProperty'), { params: { domainId: domain.id } })).result,
  });
  return (
    <>
      <PageHeader
        title="Appearance"
        description={`How the privacy widget looks on ${domain.hostname}, and what it offers visitors.`}
      />
      <DataState {...queryState(property)} loadingLabel="Loading the widget’s settings…">
        {property.data && <AppearanceEditor key={domain.id} saved={property.data} domain={domain} />}
        {property.data && <TextsEditor key={`texts-${domain.id}`} saved={property.data} domain={domain} />}
      </DataState>
    </>
  );
}
