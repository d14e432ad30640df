import { useState } from 'react';
import { Section } from '../../ui/misc';
import { ConsentFiguresView, RangePicker } from './consent-figures';
import { DEFAULT_DAYS } from './figures';
import { useDomainFigures } from './hooks';

/** The domain page's consent figures: notice views, choices and opt-in rates per day. */
export function DomainFiguresCard({ domainId, hostname }: { domainId: string; hostname: string }) {
  const [days, setDays] = useState(DEFAULT_DAYS);
  const query = useDomainFigures(domainId, days);
  return (
    <Section title="Consent figures" actions={<RangePicker days={days} onDays={setDays} />}>
      <ConsentFiguresView query={query} days={days} what={hostname} />
    </Section>
  );
}
