// Consent figures: how often this website's notice was shown and how visitors answered it, per day,
// with each category's opt-in rate, and the records of the same period to download (CSV or NDJSON).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../../api/client';
import { PageHeader } from '../../../ui/misc';
import { ConsentFiguresView, RangePicker } from '../../figures/consent-figures';
import { DEFAULT_DAYS, rangeOf } from '../../figures/figures';
import { useSectionDomain } from '../access';
import { downloadHref, ownerKeys, ownerRoute } from '../api';

export default function FiguresPage() {
  const domain = useSectionDomain();
  const [days, setDays] = useState(DEFAULT_DAYS);
  const range = rangeOf(days);
  const query = useQuery({
    queryKey: ownerKeys.of(domain.id, 'figures', days),
    queryFn: async () =>
      (await call(ownerRoute('getOwnerStats'), { params: { domainId: domain.id }, query: range })).result,
  });
  const href = (format: 'csv' | 'ndjson') =>
    downloadHref(ownerRoute('exportOwnerRecords'), { domainId: domain.id }, { ...range, format });
  return (
    <>
      <PageHeader
        title="Consent figures"
        description={`How often the notice was shown on ${domain.hostname} and how visitors answered it.`}
        actions={
          <>
            <a className="btn btn-secondary" href={href('csv')} download>
              Records of this period (CSV)
            </a>
            <a className="btn btn-secondary" href={href('ndjson')} download>
              Records of this period (NDJSON)
            </a>
          </>
        }
      />
      <form className="filters" aria-label="Period" onSubmit={(e) => e.preventDefault()}>
        <RangePicker days={days} onDays={setDays} />
      </form>
      <ConsentFiguresView query={query} days={days} what={domain.hostname} />
    </>
  );
}
